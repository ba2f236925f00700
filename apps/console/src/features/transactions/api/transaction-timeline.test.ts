import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isApiError } from '../../../lib/api-client';
import { startApiTestServer } from '../../../test/test-server';
import type { Reply, TestServer } from '../../../test/test-server';
import { supportEventFixture, supportRequestFixture, supportSearchFixture } from '../bff-fixtures';
import { fetchTransactionTimeline } from './transaction-timeline';

let server: TestServer;
let reply: () => Reply;
beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/support/search', () => reply());
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

describe('fetchTransactionTimeline', () => {
  it('keeps the events about the transaction (either side of a transfer), oldest first, and every request', async () => {
    const later = supportEventFixture({
      id: 'ev_later',
      occurredAt: '2026-01-01T00:00:09.000Z',
      data: { transactionId: 'tx_1', stage: 'SIGNED' },
    });
    const earlier = supportEventFixture({
      id: 'ev_earlier',
      occurredAt: '2026-01-01T00:00:01.000Z',
      data: { sourceTransactionId: 'tx_1' },
    });
    const credited = supportEventFixture({
      id: 'ev_credit',
      occurredAt: '2026-01-01T00:00:05.000Z',
      data: { destinationTransactionId: 'tx_1' },
    });
    // Matched by its correlation id, but about another transaction.
    const other = supportEventFixture({ id: 'ev_other', data: { transactionId: 'tx_2' } });
    const call = supportRequestFixture({ upstreamRequestId: 'up-1' });
    reply = () => ({
      body: supportSearchFixture({
        query: 'tx_1',
        kinds: ['transactionId'],
        events: [later, other, earlier, credited],
        requests: [call],
      }),
    });

    const timeline = await fetchTransactionTimeline('tx_1');

    expect(server.requests.at(-1)?.path).toBe('/bff/support/search?q=tx_1');
    expect(timeline.events.map((e) => e.id)).toEqual(['ev_earlier', 'ev_credit', 'ev_later']);
    expect(timeline.requests).toEqual([call]);
  });

  it('refuses an answer the shared contract refuses (an event without its organization)', async () => {
    const { orgId: _orgId, ...withoutOrg } = supportEventFixture({
      data: { transactionId: 'tx_1' },
    });
    reply = () => ({ body: { query: 'tx_1', events: [withoutOrg] } });

    const error: unknown = await fetchTransactionTimeline('tx_1').catch((e: unknown) => e);

    expect(isApiError(error) && error.code).toBe('INVALID_RESPONSE');
  });
});
