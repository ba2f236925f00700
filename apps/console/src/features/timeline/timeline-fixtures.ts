import {
  RequestExplanationSchema,
  TimelineSchema,
  type RequestExplanation,
  type Timeline,
} from '@settlement/protocol';

/**
 * Test support: a withdrawal's timeline with one line of every kind, and the explanations the BFF
 * gives for each failure. Everything goes through the protocol schemas, as the console parses it.
 */

export const CORRELATION_ID = 'corr-7f3a';
export const FAILED_REQUEST_ID = 'req-bff-0002';

export function withdrawalTimeline(query: string = CORRELATION_ID): Timeline {
  return TimelineSchema.parse({
    query,
    matched: ['correlationId'],
    kinds: [
      'operator-action',
      'upstream-call',
      'approval',
      'event',
      'balance-effect',
      'chain-confirmation',
    ],
    isTruncated: false,
    items: [
      {
        kind: 'operator-action',
        at: '2026-03-01T10:00:00.000Z',
        title: 'treasury submitted a withdrawal',
        ids: { correlationId: CORRELATION_ID, operationId: 'op-1' },
        operator: 'treasury',
        action: 'withdrawal.create',
        outcome: 'accepted',
        detail: null,
      },
      {
        kind: 'approval',
        at: '2026-03-01T10:00:01.000Z',
        title: 'admin2 approved the withdrawal request',
        ids: { withdrawalRequestId: 'wr-9', correlationId: CORRELATION_ID },
        step: 'approved',
        operator: 'admin2',
        status: 'APPROVED',
      },
      {
        kind: 'upstream-call',
        at: '2026-03-01T10:00:02.000Z',
        title: 'POST /api/v1/transactions -> 401 (attempt 1, 41 ms)',
        ids: { requestId: FAILED_REQUEST_ID, correlationId: CORRELATION_ID, operationId: 'op-1' },
        operator: 'treasury',
        operation: 'transactions.create',
        method: 'POST',
        path: '/api/v1/transactions',
        attempt: 1,
        status: 401,
        durationMs: 41,
        error: 'INVALID_TIMESTAMP',
        isFailure: true,
      },
      {
        kind: 'upstream-call',
        at: '2026-03-01T10:00:03.000Z',
        title: 'POST /api/v1/transactions -> 201 (attempt 2, 87 ms)',
        ids: {
          requestId: 'req-bff-0003',
          upstreamRequestId: 'up-req-77',
          transactionId: 'tx_42',
          correlationId: CORRELATION_ID,
        },
        operator: 'treasury',
        operation: 'transactions.create',
        method: 'POST',
        path: '/api/v1/transactions',
        attempt: 2,
        status: 201,
        durationMs: 87,
        error: null,
        isFailure: false,
      },
      {
        kind: 'event',
        at: '2026-03-01T10:00:04.000Z',
        title: 'transaction.status_changed',
        ids: { eventId: 'evt_5', transactionId: 'tx_42', correlationId: CORRELATION_ID },
        type: 'transaction.status_changed',
        envelope: 'topic',
        sequence: 18,
        dedupe: 'kept-first-delivery',
        status: 'PENDING',
      },
      {
        kind: 'balance-effect',
        at: '2026-03-01T10:00:05.000Z',
        title: 'reserved for the withdrawal',
        ids: { transactionId: 'tx_42', walletId: 'wal_1', accountId: 'acc_1' },
        effect: 'RESERVE',
        asset: 'TRX',
        postedDeltaAtomic: '0',
        reservedDeltaAtomic: '20000000',
      },
      {
        kind: 'chain-confirmation',
        at: '2026-03-01T10:00:30.000Z',
        title: 'confirmed on chain',
        ids: { transactionId: 'tx_42', txHash: '0xabc123' },
        blockNumber: 5012,
        confirmations: 19,
        requiredConfirmations: 19,
        status: 'CONFIRMED',
      },
    ],
  });
}

const BASE = {
  requestId: FAILED_REQUEST_ID,
  at: '2026-03-01T10:00:02.000Z',
  operation: 'transactions.create',
  method: 'POST',
  path: '/api/v1/transactions',
  attempt: 1,
  status: 401,
  code: 'INVALID_TIMESTAMP',
  findings: [],
  signed: {
    method: 'POST',
    target: '/api/v1/transactions',
    bodyHash: 'aa11',
    timestamp: '1772359202',
    nonce: 'nonce-5e',
    keyId: 'key_live_1',
  },
  skew: null,
  nonce: null,
  bodyHash: null,
  key: null,
  idempotency: null,
  validation: null,
};

/** One explanation per failure the BFF can name, built over `BASE`. */
export function explanationOf(
  cause: 'skew' | 'nonce' | 'body-hash' | 'unknown-key' | 'scope' | 'idempotency' | 'validation',
): RequestExplanation {
  const byCause = {
    skew: {
      cause: 'timestamp-skew',
      summary: 'The signed timestamp was 412 seconds ahead of the upstream clock.',
      skew: { seconds: 412, allowedSeconds: 300 },
    },
    nonce: {
      cause: 'nonce-reused',
      code: 'NONCE_REUSED',
      summary: 'The nonce had already been used within its retention window.',
      nonce: {
        firstRequestId: 'req-bff-0001',
        firstAt: '2026-03-01T09:59:00.000Z',
        retentionSeconds: 600,
      },
    },
    'body-hash': {
      cause: 'body-hash-mismatch',
      code: 'INVALID_BODY_HASH',
      summary: 'The declared body hash is not the hash of the bytes sent.',
      bodyHash: { declared: 'aa11', ofBytesSent: 'bb22' },
    },
    'unknown-key': {
      cause: 'unknown-key',
      code: 'INVALID_API_KEY',
      summary: 'The upstream does not know this key id.',
      key: { keyId: 'key_old', isConfigured: false, scopes: [], requiredScope: null },
    },
    scope: {
      cause: 'missing-scope',
      status: 403,
      code: 'INSUFFICIENT_SCOPE',
      summary: 'The key lacks the scope this call needs.',
      key: {
        keyId: 'key_live_1',
        isConfigured: true,
        scopes: ['transactions:read'],
        requiredScope: 'transactions:write',
      },
    },
    idempotency: {
      cause: 'idempotency-conflict',
      status: 409,
      code: 'IDEMPOTENCY_CONFLICT',
      summary: 'The idempotency key was first used with a different body.',
      idempotency: {
        key: 'idem-1',
        firstRequestId: 'req-bff-0001',
        firstAt: '2026-03-01T09:59:00.000Z',
        differs: ['bodyHash'],
        first: { method: 'POST', target: '/api/v1/transactions', bodyHash: 'aa11' },
        this: { method: 'POST', target: '/api/v1/transactions', bodyHash: 'cc33' },
      },
    },
    validation: {
      cause: 'domain-rule',
      status: 422,
      code: 'INVALID_ADDRESS',
      summary: 'The destination is not an address of the wallet chain.',
      findings: ['details[0]: field toAddress'],
      validation: { field: 'toAddress', rule: "must be a valid address of the wallet's chain" },
    },
  }[cause];
  return RequestExplanationSchema.parse({ ...BASE, ...byCause });
}
