import { PolicyBlockedDetailSchema } from '@settlement/protocol';
import type { PolicyBlockedDetail } from '@settlement/protocol';
import { isApiError } from '../../../lib/api-client';

export type ErrorAdvice = {
  title: string;
  /**
   * The server's own message when it says more than the code's generic text (for example
   * "toAddress is the address of the source wallet"): shown beside the console's advice, never
   * replaced by it.
   */
  detail: string | null;
  advice: string;
  /** A retry with the same operation id is safe and may succeed. */
  canRetry: boolean;
  /** The request must change (a new operation id is then fine: nothing was created). */
  mustEdit: boolean;
};

/**
 * What each code of the interface means for the operator, and what to do next. The offered
 * action follows the code and `retryable`: retry only what may succeed unchanged, edit what the
 * request got wrong, and neither when only someone else can lift the cause.
 */
export function adviceFor(error: unknown): ErrorAdvice {
  return { ...adviceOf(error), detail: detailOf(error) };
}

function detailOf(error: unknown): string | null {
  if (!isApiError(error)) return null;
  const message = error.message.trim();
  return message && message !== error.description ? message : null;
}

function adviceOf(error: unknown): Omit<ErrorAdvice, 'detail'> {
  if (!isApiError(error)) {
    return {
      title: 'The withdrawal could not be sent.',
      advice:
        'Retrying is safe: it uses the same operation id, so at most one withdrawal is created.',
      canRetry: true,
      mustEdit: false,
    };
  }
  const title = error.description;
  switch (error.code) {
    case 'WITHDRAWALS_BLOCKED':
      return {
        title,
        advice:
          'Do not retry. The organization or this wallet is restricted; contact the service operator.',
        canRetry: false,
        mustEdit: false,
      };
    case 'POLICY_BLOCKED':
      return policyBlockedAdvice(policyBlockOf(error.details));
    case 'UPSTREAM_UNAVAILABLE':
    case 'INTERNAL_ERROR':
    case 'NETWORK_ERROR':
      return {
        title,
        advice:
          'Retry safely: the retry reuses the same operation id and idempotency key, so at most one withdrawal is created.',
        canRetry: true,
        mustEdit: false,
      };
    case 'INSUFFICIENT_AVAILABLE_BALANCE':
      return {
        title,
        advice:
          'Lower the amount (the fee is reserved too) or wait for pending withdrawals to finish.',
        canRetry: false,
        mustEdit: true,
      };
    case 'INVALID_ADDRESS':
      return { title, advice: 'Check the destination address.', canRetry: false, mustEdit: true };
    case 'INVALID_FEE_LIMIT':
      return {
        title,
        advice: 'Use a fee limit between 1 and 15,000 TRX, or leave it empty.',
        canRetry: false,
        mustEdit: true,
      };
    case 'UNSUPPORTED_ASSET':
    case 'UNSUPPORTED_CHAIN':
      return {
        title,
        advice: 'Choose an asset the catalog enables on this wallet’s chain.',
        canRetry: false,
        mustEdit: true,
      };
    case 'CLIENT_REFERENCE_CONFLICT':
      return {
        title,
        advice:
          'A transaction already uses this client reference. Find it in Support, or use another reference.',
        canRetry: false,
        mustEdit: true,
      };
    case 'IDEMPOTENCY_CONFLICT':
      return {
        title,
        advice:
          'This operation id was already used (for a different withdrawal, or one that was abandoned). Start a new withdrawal.',
        canRetry: false,
        mustEdit: true,
      };
    case 'STEP_UP_REQUIRED':
      // The passkey prompt was cancelled or failed: the same request, confirmed, is accepted.
      return {
        title,
        advice:
          'Nothing was sent: your passkey was not confirmed. Send it again (same operation id) and confirm with your passkey when the browser asks.',
        canRetry: true,
        mustEdit: false,
      };
    case 'UNAUTHENTICATED':
      return {
        title: 'You were signed out.',
        advice:
          'Nothing was sent. Sign in again: this withdrawal is kept as an unsent draft for you.',
        canRetry: false,
        mustEdit: false,
      };
    case 'RESOURCE_NOT_FOUND':
      return {
        title,
        advice: 'The wallet is not available in this organization.',
        canRetry: false,
        mustEdit: true,
      };
    case 'FORBIDDEN':
      return {
        title,
        advice: 'Your role or the service key may not send withdrawals.',
        canRetry: false,
        mustEdit: false,
      };
    default:
      return {
        title,
        advice: error.retryable
          ? 'Retrying with the same operation id is safe.'
          : 'Sending it again unchanged would be refused the same way. Edit the withdrawal.',
        canRetry: error.retryable,
        mustEdit: !error.retryable,
      };
  }
}

/** A 503 whose details say the BFF does not know whether the withdrawal was created. */
export function unknownOutcomeOf(error: unknown): string | null {
  if (!isApiError(error)) return null;
  for (const detail of error.details) {
    if (
      typeof detail === 'object' &&
      detail !== null &&
      Reflect.get(detail, 'outcome') === 'unknown'
    ) {
      const operationId: unknown = Reflect.get(detail, 'operationId');
      return typeof operationId === 'string' ? operationId : '';
    }
  }
  return null;
}

/** The rule or limit a 403 POLICY_BLOCKED names (its first detail), when the details say. */
function policyBlockOf(details: readonly unknown[]): PolicyBlockedDetail | null {
  const parsed = PolicyBlockedDetailSchema.safeParse(details[0]);
  return parsed.success ? parsed.data : null;
}

/**
 * Blocked by the policy: sending it again is refused the same way, so no retry is offered; only
 * an admin can change the rule or the limit (or, for a limit, a smaller amount or a later time).
 */
function policyBlockedAdvice(block: PolicyBlockedDetail | null): Omit<ErrorAdvice, 'detail'> {
  const base = { canRetry: false, mustEdit: false };
  if (block?.limit) {
    return {
      ...base,
      title: `Blocked by the withdrawal limit ${block.limit}.`,
      advice:
        'Do not retry: it would be blocked the same way. Ask an admin to raise the limit, or send a smaller amount once the limit’s window has room.',
    };
  }
  if (block?.rule) {
    return {
      ...base,
      title: `Blocked by the policy rule "${block.rule.name}".`,
      advice:
        'Do not retry: it would be blocked the same way. If this withdrawal should be possible, ask an admin to change the withdrawal policy.',
    };
  }
  return {
    ...base,
    title: 'Blocked: no rule of the withdrawal policy allows this withdrawal.',
    advice:
      'Do not retry: it would be blocked the same way. Ask an admin to add a rule to the withdrawal policy that allows it.',
  };
}
