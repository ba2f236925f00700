import type { Overview } from '@settlement/protocol';
import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiTestServer } from '../../../test/test-server';
import type { TestServer } from '../../../test/test-server';
import { overviewQuery } from './overview';

const figures = {
  totals: [],
  wallets: [],
  isPartial: false,
  unreadWallets: 0,
  inFlight: { count: 0, oldestCreatedAt: null, totals: [], oldest: [] },
} satisfies Omit<Overview, 'generatedAt'>;

let server: TestServer;
let generatedAt = '2026-11-24T10:00:00.000Z';
beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/overview', () => ({ body: { generatedAt, ...figures } }));
});
afterAll(() => server.close());

describe('overviewQuery', () => {
  it('keeps the cached overview when a refetch brings the same figures at a later time', async () => {
    const client = new QueryClient();
    const first = await client.query(overviewQuery());
    generatedAt = '2026-11-24T10:00:05.000Z';
    await client.refetchQueries({ queryKey: overviewQuery().queryKey });

    // The same object: nothing that reads it re-renders (the live stream refetches it often).
    expect(client.getQueryData(overviewQuery().queryKey)).toBe(first);
    expect(server.requests.filter((request) => request.path === '/bff/overview')).toHaveLength(2);
  });
});
