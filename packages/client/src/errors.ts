import type { ErrorEnvelope } from '@settlement/protocol';

/** A non-2xx answer of the interface, carrying its error envelope's fields. */
export class SettlementApiError extends Error {
  override readonly name = 'SettlementApiError';
  readonly code: string;
  readonly status: number;
  readonly requestId: string | null;
  readonly retryable: boolean;
  readonly details: unknown[];

  constructor(input: {
    code: string;
    status: number;
    message: string;
    requestId: string | null;
    retryable: boolean;
    details?: unknown[];
  }) {
    super(input.message);
    this.code = input.code;
    this.status = input.status;
    this.requestId = input.requestId;
    this.retryable = input.retryable;
    this.details = input.details ?? [];
  }

  static fromEnvelope(status: number, envelope: ErrorEnvelope): SettlementApiError {
    return new SettlementApiError({
      code: envelope.code,
      status,
      message: envelope.message,
      requestId: envelope.requestId,
      retryable: envelope.retryable,
      details: envelope.details,
    });
  }
}

/**
 * A mutating call whose attempts all failed without a definitive answer: the upstream may or
 * may not have acted. Retry later with the SAME idempotency key and bytes, or reconcile first.
 */
export class OutcomeUnknownError extends Error {
  override readonly name = 'OutcomeUnknownError';
  readonly attempts: number;
  readonly idempotencyKey: string | null;
  readonly lastStatus: number | null;
  readonly lastRequestId: string | null;

  constructor(input: {
    attempts: number;
    idempotencyKey: string | null;
    lastStatus: number | null;
    lastRequestId: string | null;
    cause: unknown;
  }) {
    super(`outcome unknown after ${input.attempts} attempts`, { cause: input.cause });
    this.attempts = input.attempts;
    this.idempotencyKey = input.idempotencyKey;
    this.lastStatus = input.lastStatus;
    this.lastRequestId = input.lastRequestId;
  }
}
