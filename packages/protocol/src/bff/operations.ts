import { z } from 'zod/mini';
import { TimestampSchema } from '../schemas/common';

/**
 * The BFF's journal of one logical action (`GET /bff/operations/{operationId}`) and the way out
 * of an unknown outcome (`POST /bff/operations/{operationId}/abandon`). The upstream interface
 * defines neither; the BFF and the console both read them from here.
 */

/**
 * `pending`: being sent now; `unknown`: every attempt ended without a definite answer;
 * `abandoned`: an operator gave up on it after reconciliation proved the upstream never created
 * it, and the BFF will never send it again.
 */
export const OPERATION_STATES = ['pending', 'succeeded', 'failed', 'unknown', 'abandoned'] as const;
export const OperationStateSchema = z.enum(OPERATION_STATES);
export type OperationState = z.infer<typeof OperationStateSchema>;

/** One upstream call made for the operation (a send, or a reconciliation read). */
export const OperationAttemptSchema = z.lazy(() =>
  z.object({
    /** `transactions.create`, `transactions.reconcile`, ... */
    operation: z.string(),
    method: z.string(),
    attempt: z.int().check(z.positive()),
    /** HTTP status of the upstream's answer; null when none arrived (timeout, network). */
    status: z.nullable(z.int()),
    /** The request id the BFF sent. */
    requestId: z.string(),
    /** The upstream's own request id, when it answered: what its support can look up. */
    upstreamRequestId: z.nullable(z.string()),
    at: TimestampSchema,
    error: z.nullable(z.string()),
  }),
);
export type OperationAttempt = z.infer<typeof OperationAttemptSchema>;

export const OperationViewSchema = z.lazy(() =>
  z.object({
    operationId: z.string(),
    operation: z.string(),
    state: OperationStateSchema,
    /** The recorded HTTP status (a definite answer, or the last one before the outcome was lost). */
    status: z.optional(z.int()),
    /** The recorded response body (the created resource, or the error envelope). */
    response: z.optional(z.unknown()),
    idempotencyKey: z.string(),
    clientReference: z.nullable(z.string()),
    upstreamRequestId: z.nullable(z.string()),
    correlationId: z.nullable(z.string()),
    attempts: z.array(OperationAttemptSchema),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  }),
);
export type OperationView = z.infer<typeof OperationViewSchema>;
