import { z } from 'zod';
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
    attempt: z.number().int().positive(),
    /** HTTP status of the upstream's answer; null when none arrived (timeout, network). */
    status: z.number().int().nullable(),
    /** The request id the BFF sent. */
    requestId: z.string(),
    /** The upstream's own request id, when it answered: what its support can look up. */
    upstreamRequestId: z.string().nullable(),
    at: TimestampSchema,
    error: z.string().nullable(),
  }),
);
export type OperationAttempt = z.infer<typeof OperationAttemptSchema>;

export const OperationViewSchema = z.lazy(() =>
  z.object({
    operationId: z.string(),
    operation: z.string(),
    state: OperationStateSchema,
    /** The recorded HTTP status (a definite answer, or the last one before the outcome was lost). */
    status: z.number().int().optional(),
    /** The recorded response body (the created resource, or the error envelope). */
    response: z.unknown().optional(),
    idempotencyKey: z.string(),
    clientReference: z.string().nullable(),
    upstreamRequestId: z.string().nullable(),
    correlationId: z.string().nullable(),
    attempts: z.array(OperationAttemptSchema),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  }),
);
export type OperationView = z.infer<typeof OperationViewSchema>;
