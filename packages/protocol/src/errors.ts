import { z } from 'zod/mini';

/**
 * Every error code the interface names, plus the ones DESIGN.md adds where it is silent,
 * with the HTTP status and `retryable` flag each one carries. One table, used by every server.
 */
export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, retryable: false, text: 'The request is not valid.' },
  INVALID_QUERY_PARAMETER: {
    status: 400,
    retryable: false,
    text: 'A query parameter is not valid.',
  },
  IDEMPOTENCY_KEY_REQUIRED: {
    status: 400,
    retryable: false,
    text: 'An idempotency key is required.',
  },
  IDEMPOTENCY_KEY_INVALID: {
    status: 400,
    retryable: false,
    text: 'The idempotency key is not valid.',
  },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    retryable: false,
    text: 'This idempotency key was already used for a different request.',
  },
  'mpc.errors.IDEMPOTENCY_CONFLICT': {
    status: 400,
    retryable: false,
    text: 'MPC initialization was already requested with a different key or request.',
  },
  CLIENT_REFERENCE_CONFLICT: {
    status: 409,
    retryable: false,
    text: 'A transaction with this client reference already exists.',
  },
  CO_SIGNER_CLAIM_CONFLICT: {
    status: 409,
    retryable: false,
    text: 'The signing intent or session is already claimed, completed or cancelled.',
  },
  ACCOUNT_EXTERNAL_ID_CONFLICT: {
    status: 409,
    retryable: false,
    text: 'An account with this external id already exists.',
  },
  ACCOUNT_METADATA_TOO_LARGE: {
    status: 422,
    retryable: false,
    text: 'Account metadata is larger than 16 KiB.',
  },
  RESOURCE_NOT_FOUND: { status: 404, retryable: false, text: 'Not found in this organization.' },
  UNSUPPORTED_CHAIN: { status: 422, retryable: false, text: 'This chain is not supported.' },
  UNSUPPORTED_ASSET: {
    status: 422,
    retryable: false,
    text: 'This asset is not available on this chain.',
  },
  INVALID_ADDRESS: {
    status: 422,
    retryable: false,
    text: 'The destination address is not valid for this chain.',
  },
  INVALID_FEE_LIMIT: { status: 422, retryable: false, text: 'The fee limit is not valid.' },
  INSUFFICIENT_AVAILABLE_BALANCE: {
    status: 422,
    retryable: false,
    text: 'The available balance does not cover the amount and the network fee.',
  },
  WITHDRAWALS_BLOCKED: {
    status: 403,
    retryable: false,
    text: 'Withdrawals are blocked for this organization or wallet. Do not retry.',
  },
  PLAN_LIMIT_REACHED: {
    status: 403,
    retryable: false,
    text: "The organization's plan allows no more wallets.",
  },
  /** BFF only (withdrawal governance): the policy or a limit refuses this withdrawal. */
  POLICY_BLOCKED: {
    status: 403,
    retryable: false,
    text: 'The withdrawal policy blocks this withdrawal.',
  },
  /** BFF only: the requester (or creator) cannot approve their own request. */
  SELF_APPROVAL_FORBIDDEN: {
    status: 403,
    retryable: false,
    text: 'You cannot approve your own request; another operator must.',
  },
  /** BFF only: the withdrawal request or entry is no longer awaiting this action. */
  REQUEST_NOT_PENDING: {
    status: 409,
    retryable: false,
    text: 'This request is no longer awaiting approval.',
  },
  /** BFF only: the address book already holds this (chain, address). */
  ADDRESS_BOOK_DUPLICATE: {
    status: 409,
    retryable: false,
    text: 'The address book already holds this address on this chain.',
  },
  UNAUTHENTICATED: { status: 401, retryable: false, text: 'Authentication failed.' },
  /** BFF only: this action needs a passkey confirmation from the last 5 minutes. */
  STEP_UP_REQUIRED: {
    status: 401,
    retryable: false,
    text: 'Confirm it is you with your passkey to continue.',
  },
  /** BFF only: a new password that is too short or too easy to guess. */
  PASSWORD_TOO_WEAK: {
    status: 422,
    retryable: false,
    text: 'The new password is too easy to guess.',
  },
  /** BFF only: the organization would be left without an enabled admin. */
  LAST_ADMIN_PROTECTED: {
    status: 409,
    retryable: false,
    text: 'The last enabled admin cannot be disabled or demoted.',
  },
  /** BFF only: passkeys are required and this is the operator's last one. */
  LAST_PASSKEY_PROTECTED: {
    status: 409,
    retryable: false,
    text: 'Passkeys are required: the last passkey cannot be removed.',
  },
  /** BFF only: an operator with this username exists. */
  OPERATOR_EXISTS: {
    status: 409,
    retryable: false,
    text: 'An operator with this username already exists.',
  },
  FORBIDDEN: { status: 403, retryable: false, text: 'Not allowed for this key or role.' },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false, text: 'The request body is too large.' },
  /** BFF only: login throttling (not a code of the interface). */
  RATE_LIMITED: {
    status: 429,
    retryable: false,
    text: 'Too many attempts. Wait a moment before trying again.',
  },
  INTERNAL_ERROR: { status: 500, retryable: true, text: 'Internal error.' },
  UPSTREAM_UNAVAILABLE: {
    status: 503,
    retryable: true,
    text: 'A required upstream service is unavailable. It is safe to retry.',
  },
} as const satisfies Record<string, { status: number; retryable: boolean; text: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

/** Human text for any code, known or not (an upstream may add codes). */
export function describeErrorCode(code: string): string {
  return isErrorCode(code) ? ERROR_CODES[code].text : `Error ${code}.`;
}

export const ErrorEnvelopeSchema = z.lazy(() =>
  z.looseObject({
    code: z.string().check(z.minLength(1)),
    message: z.string(),
    details: z.array(z.unknown()),
    requestId: z.string(),
    retryable: z.boolean(),
  }),
);
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

export function errorEnvelope(
  code: ErrorCode,
  requestId: string,
  message: string = ERROR_CODES[code].text,
  details: unknown[] = [],
): ErrorEnvelope {
  return { code, message, details, requestId, retryable: ERROR_CODES[code].retryable };
}

/** Recognises an error envelope in any parsed body; returns null for anything else. */
export function parseErrorEnvelope(body: unknown): ErrorEnvelope | null {
  const parsed = ErrorEnvelopeSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
}
