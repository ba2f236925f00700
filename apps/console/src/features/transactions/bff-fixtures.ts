import {
  OperationViewSchema,
  SupportEventSchema,
  SupportRequestSchema,
  SupportSearchResultSchema,
} from '@settlement/protocol';
import type {
  OperationView,
  SupportEvent,
  SupportRequest,
  SupportSearchResult,
} from '@settlement/protocol';

/**
 * Test support: the BFF's own answers the transactions feature reads (support search, operation
 * journal), each parsed by its protocol schema, so a fixture that drifts from the contract fails
 * here rather than passing a test.
 */

const AT = '2026-01-01T00:00:00.000Z';

/** A stored event, as the support search returns it. */
export function supportEventFixture(fields: Partial<SupportEvent> = {}): SupportEvent {
  return SupportEventSchema.parse({
    id: 'ev_1',
    type: 'transaction.updated',
    occurredAt: AT,
    correlationId: null,
    sequence: null,
    orgId: 'org_test',
    transactionId: null,
    walletId: null,
    accountId: null,
    txHash: null,
    data: {},
    ...fields,
  });
}

/** One upstream call from the BFF's request log. */
export function supportRequestFixture(fields: Partial<SupportRequest> = {}): SupportRequest {
  return SupportRequestSchema.parse({
    at: AT,
    operator: 'treasury',
    operation: 'transactions.create',
    operationId: null,
    method: 'POST',
    path: '/v1/transactions',
    attempt: 1,
    status: 201,
    durationMs: 12,
    requestId: 'bff-req-1',
    requestIdSent: 'bff-req-1',
    upstreamRequestId: null,
    correlationId: null,
    idempotencyKey: null,
    error: null,
    ...fields,
  });
}

/** `GET /bff/support/search?q=`: only the sections given are filled. */
export function supportSearchFixture(
  fields: Partial<SupportSearchResult> & Pick<SupportSearchResult, 'query'>,
): SupportSearchResult {
  return SupportSearchResultSchema.parse(fields);
}

/** `GET /bff/operations/{operationId}`: an operation whose outcome is not known yet by default. */
export function operationViewFixture(fields: Partial<OperationView> = {}): OperationView {
  return OperationViewSchema.parse({
    operationId: 'op',
    operation: 'transactions.create',
    state: 'unknown',
    idempotencyKey: 'op-key',
    clientReference: 'ref',
    upstreamRequestId: null,
    correlationId: null,
    attempts: [],
    createdAt: AT,
    updatedAt: AT,
    ...fields,
  });
}
