import { z } from 'zod';

/**
 * Operator security (BFF only): who is signed in, the sign-in steps after the password,
 * passkeys (WebAuthn), step-up, sessions and operator management. DESIGN.md "Second wave"
 * fixes the routes; the BFF types its answers and the console parses them with these schemas.
 */

/** The one role list, from least to most privilege: each role may do all the earlier ones may. */
export const ROLES = ['support', 'treasury', 'admin'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** Whether `actual` may do what `required` may (its place in ROLES is the same or later). */
export function hasRole(actual: Role, required: Role): boolean {
  return ROLES.indexOf(actual) >= ROLES.indexOf(required);
}

export const UPSTREAM_KINDS = ['sandbox', 'remote'] as const;

/** An instant as ISO 8601 (the BFF's clock). */
const InstantSchema = z.string();

/** GET /bff/auth/me, and POST /bff/auth/login once signing in is complete. */
export const MeSchema = z.looseObject({
  operator: z.looseObject({ username: z.string(), role: RoleSchema }),
  csrfToken: z.string().min(1),
  upstream: z.looseObject({ kind: z.enum(UPSTREAM_KINDS) }),
  organization: z.looseObject({ id: z.string() }).optional(),
});
export type Me = z.infer<typeof MeSchema>;

/**
 * What the password alone does not finish: a one-time password to replace, a passkey to
 * present, or (passkeys required) a first passkey to enroll. Until then the session can do
 * nothing else.
 */
export const SIGN_IN_STEPS = ['change-password', 'passkey', 'enroll-passkey'] as const;
export const SignInStepSchema = z.enum(SIGN_IN_STEPS);
export type SignInStep = z.infer<typeof SignInStepSchema>;

export const PendingSignInSchema = z.object({
  signInStep: SignInStepSchema,
  operator: z.object({ username: z.string(), role: RoleSchema }),
  csrfToken: z.string().min(1),
  upstream: z.object({ kind: z.enum(UPSTREAM_KINDS) }),
});
export type PendingSignIn = z.infer<typeof PendingSignInSchema>;

/** POST /bff/auth/login, POST /bff/auth/password and the sign-in passkey routes. */
export const SignInResultSchema = z.union([PendingSignInSchema, MeSchema]);
export type SignInResult = z.infer<typeof SignInResultSchema>;

export const LoginRequestSchema = z.object({
  username: z.string().min(1).max(128),
  password: z.string().min(1).max(1024),
});

/** At least 12 characters; strength is judged by the BFF (PASSWORD_TOO_WEAK). */
export const NEW_PASSWORD_MIN_LENGTH = 12;
export const NewPasswordSchema = z.string().min(NEW_PASSWORD_MIN_LENGTH).max(1024);

/** POST /bff/auth/password: the signed-in operator (or one replacing a one-time password). */
export const ChangePasswordRequestSchema = z.object({
  currentPassword: z.string().min(1).max(1024),
  newPassword: NewPasswordSchema,
});

// --- WebAuthn (the JSON forms of @simplewebauthn; only what the BFF sends and reads) ---

const Base64UrlSchema = z.string().regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');
export const TRANSPORTS = [
  'ble',
  'cable',
  'hybrid',
  'internal',
  'nfc',
  'smart-card',
  'usb',
] as const;
const TransportSchema = z.enum(TRANSPORTS);
const CredentialDescriptorSchema = z.object({
  id: Base64UrlSchema,
  type: z.literal('public-key'),
  transports: z.array(TransportSchema).exactOptional(),
});

export const PasskeyCreationOptionsSchema = z.looseObject({
  rp: z.object({ id: z.string().exactOptional(), name: z.string() }),
  user: z.object({ id: Base64UrlSchema, name: z.string(), displayName: z.string() }),
  challenge: Base64UrlSchema,
  pubKeyCredParams: z.array(z.object({ alg: z.number().int(), type: z.literal('public-key') })),
  timeout: z.number().int().exactOptional(),
  excludeCredentials: z.array(CredentialDescriptorSchema).exactOptional(),
  authenticatorSelection: z
    .object({
      residentKey: z.enum(['discouraged', 'preferred', 'required']).exactOptional(),
      requireResidentKey: z.boolean().exactOptional(),
      userVerification: z.enum(['discouraged', 'preferred', 'required']).exactOptional(),
    })
    .exactOptional(),
  attestation: z.enum(['direct', 'enterprise', 'indirect', 'none']).exactOptional(),
});
export type PasskeyCreationOptions = z.infer<typeof PasskeyCreationOptionsSchema>;

export const PasskeyRequestOptionsSchema = z.looseObject({
  challenge: Base64UrlSchema,
  timeout: z.number().int().exactOptional(),
  rpId: z.string().exactOptional(),
  allowCredentials: z.array(CredentialDescriptorSchema).exactOptional(),
  userVerification: z.enum(['discouraged', 'preferred', 'required']).exactOptional(),
});
export type PasskeyRequestOptions = z.infer<typeof PasskeyRequestOptionsSchema>;

const ClientExtensionResultsSchema = z.looseObject({});

export const RegistrationCredentialSchema = z.object({
  id: Base64UrlSchema.min(1).max(1400),
  rawId: Base64UrlSchema.min(1).max(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: Base64UrlSchema.max(8192),
    attestationObject: Base64UrlSchema.max(65_536),
    authenticatorData: Base64UrlSchema.max(65_536).exactOptional(),
    transports: z.array(TransportSchema).max(8).exactOptional(),
    publicKeyAlgorithm: z.number().int().exactOptional(),
    publicKey: Base64UrlSchema.max(8192).exactOptional(),
  }),
  authenticatorAttachment: z.enum(['cross-platform', 'platform']).exactOptional(),
  clientExtensionResults: ClientExtensionResultsSchema,
});
export type RegistrationCredential = z.infer<typeof RegistrationCredentialSchema>;

export const AuthenticationCredentialSchema = z.object({
  id: Base64UrlSchema.min(1).max(1400),
  rawId: Base64UrlSchema.min(1).max(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: Base64UrlSchema.max(8192),
    authenticatorData: Base64UrlSchema.max(65_536),
    signature: Base64UrlSchema.max(8192),
    userHandle: Base64UrlSchema.max(1400).exactOptional(),
  }),
  authenticatorAttachment: z.enum(['cross-platform', 'platform']).exactOptional(),
  clientExtensionResults: ClientExtensionResultsSchema,
});
export type AuthenticationCredential = z.infer<typeof AuthenticationCredentialSchema>;

export const PasskeyNameSchema = z.string().trim().min(1).max(64);

/** POST /bff/auth/passkeys/register/verify */
export const PasskeyRegisterRequestSchema = z.object({
  name: PasskeyNameSchema,
  credential: RegistrationCredentialSchema,
});
export type PasskeyRegisterRequest = z.infer<typeof PasskeyRegisterRequestSchema>;

/** POST /bff/auth/passkeys/login/verify and /bff/auth/step-up/verify */
export const PasskeyAssertionRequestSchema = z.object({
  credential: AuthenticationCredentialSchema,
});
export type PasskeyAssertionRequest = z.infer<typeof PasskeyAssertionRequestSchema>;

export const PasskeySchema = z.object({
  /** An opaque handle of the BFF, not the credential id. */
  id: z.string(),
  name: z.string(),
  createdAt: InstantSchema,
  lastUsedAt: InstantSchema.nullable(),
  isBackedUp: z.boolean(),
});
export type Passkey = z.infer<typeof PasskeySchema>;

/** GET /bff/auth/passkeys (and an admin's GET /bff/operators/{username}/passkeys). */
export const PasskeyListSchema = z.object({
  items: z.array(PasskeySchema),
  /** Whether this deployment requires a passkey (the last one cannot be removed then). */
  requirePasskeys: z.boolean(),
});
export type PasskeyList = z.infer<typeof PasskeyListSchema>;

/** POST /bff/auth/passkeys/register/verify answers the passkey and where signing in stands. */
export const PasskeyEnrolledSchema = z.object({
  passkey: PasskeySchema,
  signIn: SignInResultSchema,
});
export type PasskeyEnrolled = z.infer<typeof PasskeyEnrolledSchema>;

/** POST /bff/auth/step-up/verify: a fresh step-up lasts until this instant. */
export const StepUpSchema = z.object({ freshUntil: InstantSchema });
export type StepUp = z.infer<typeof StepUpSchema>;

/** How long a user-verified assertion counts as a fresh step-up. */
export const STEP_UP_FRESH_MS = 5 * 60_000;

// --- sessions ---

export const SessionInfoSchema = z.object({
  /** An opaque handle; never the cookie or anything derived from it. */
  id: z.string(),
  username: z.string(),
  /** "Chrome on Linux", from the user agent. */
  device: z.string(),
  userAgent: z.string(),
  ip: z.string(),
  createdAt: InstantSchema,
  lastSeenAt: InstantSchema,
  isCurrent: z.boolean(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

/** GET /bff/auth/sessions[?username=] (another operator's: admin). */
export const SessionListSchema = z.object({ items: z.array(SessionInfoSchema) });
export type SessionList = z.infer<typeof SessionListSchema>;

/** DELETE /bff/auth/sessions (every other session of mine). */
export const EndedSessionsSchema = z.object({ ended: z.number().int().min(0) });

// --- operators ---

export const UsernameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{1,63}$/, 'must be 2-64 lowercase letters, digits, ".", "_" or "-"');

export const OperatorSummarySchema = z.object({
  username: z.string(),
  role: RoleSchema,
  isDisabled: z.boolean(),
  mustChangePassword: z.boolean(),
  passkeys: z.number().int().min(0),
  createdAt: InstantSchema,
  lastSignInAt: InstantSchema.nullable(),
});
export type OperatorSummary = z.infer<typeof OperatorSummarySchema>;

/** GET /bff/operators */
export const OperatorListSchema = z.object({ items: z.array(OperatorSummarySchema) });
export type OperatorList = z.infer<typeof OperatorListSchema>;

/** POST /bff/operators */
export const CreateOperatorRequestSchema = z.object({ username: UsernameSchema, role: RoleSchema });
export type CreateOperatorRequest = z.infer<typeof CreateOperatorRequestSchema>;

/** POST /bff/operators and POST /bff/operators/{username}/reset-password: shown once. */
export const OneTimePasswordSchema = z.object({
  operator: OperatorSummarySchema,
  oneTimePassword: z.string(),
});
export type OneTimePassword = z.infer<typeof OneTimePasswordSchema>;

/** PATCH /bff/operators/{username} */
export const UpdateOperatorRequestSchema = z
  .object({ role: RoleSchema.exactOptional(), disabled: z.boolean().exactOptional() })
  .refine((body) => body.role !== undefined || body.disabled !== undefined, {
    message: 'role or disabled is required',
  });
export type UpdateOperatorRequest = z.infer<typeof UpdateOperatorRequestSchema>;
