import { SupportSearchResultSchema, type SupportSearchResult } from '@settlement/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fundedWallet,
  startBff,
  startSandbox,
  waitFor,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from '../test-support/harness';

let sandbox: SandboxProcess;
let bff: BffInstance;
let support: Browser;
let created: { id: string; correlationId: string };
let createResponseRequestId = '';
let walletAddress = '';

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 20 });
  bff = await startBff({ sandbox });
  const admin = await bff.login('admin');
  const treasury = await bff.login('treasury');
  support = await bff.login('support');
  const wallet = await fundedWallet(bff, admin, treasury);
  walletAddress = wallet.address;
  const response = await bff.call('POST', '/bff/api/v1/transactions', {
    browser: treasury,
    body: {
      walletId: wallet.walletId,
      asset: 'TRX',
      toAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      amountAtomic: '3000000',
      clientReference: 'inv-search-1',
    },
    headers: { 'x-operation-id': 'search-wd-1' },
  });
  expect(response.status, response.text).toBe(201);
  created = response.json as { id: string; correlationId: string };
  createResponseRequestId = response.headers['x-request-id'] ?? '';
  await waitFor(
    async () =>
      Promise.resolve(
        bff.db
          .prepare(
            "SELECT 1 FROM events WHERE transaction_id = ? AND type = 'transaction.confirmed'",
          )
          .get(created.id),
      ),
    60_000,
  );
}, 90_000);

afterAll(async () => {
  await bff.close();
  await sandbox.stop();
});

async function search(q: string): Promise<SupportSearchResult> {
  const response = await bff.call('GET', `/bff/support/search?q=${encodeURIComponent(q)}`, {
    browser: support,
  });
  expect(response.status, response.text).toBe(200);
  return SupportSearchResultSchema.parse(response.json);
}

async function row(sql: string, ...params: unknown[]): Promise<Record<string, string>> {
  await bff.bff.services.logs.flush();
  return bff.db.prepare(sql).get(...params) as Record<string, string>;
}

describe('support search', () => {
  it('finds the withdrawal by every kind of identifier, with its events, upstream calls and operator actions', async () => {
    const event = await row(
      "SELECT id, tx_hash FROM events WHERE transaction_id = ? AND type = 'transaction.confirmed'",
      created.id,
    );
    const call = await row(
      "SELECT request_id_sent, idempotency_key FROM request_log WHERE operation_id = 'search-wd-1'",
    );
    const identifiers: [string, string][] = [
      ['transactionId', created.id],
      ['clientReference', 'inv-search-1'],
      ['correlationId', created.correlationId],
      ['requestId', createResponseRequestId],
      ['x-request-id', call.request_id_sent ?? ''],
      ['idempotencyKey', call.idempotency_key ?? ''],
      ['operationId', 'search-wd-1'],
      ['eventId', event.id ?? ''],
      ['txHash', event.tx_hash ?? ''],
      ['walletAddress', walletAddress],
    ];
    expect(event.tx_hash).toMatch(/^[0-9a-f]{64}$/);
    for (const [kind, q] of identifiers) {
      const result = await search(q);
      expect(result.kinds, `${kind} ${q}`).toContain(kind);
      expect(
        result.transactions.map((t) => t.id),
        kind,
      ).toContain(created.id);
      const types = result.events.filter((e) => e.transactionId === created.id).map((e) => e.type);
      expect(types, kind).toEqual(
        expect.arrayContaining(['transaction.created', 'transaction.confirmed']),
      );
      const times = result.events.map((e) => e.occurredAt);
      expect(times, kind).toEqual([...times].sort());
      expect(
        result.requests.some((c) => c.operationId === 'search-wd-1'),
        kind,
      ).toBe(true);
      expect(
        result.actions.some((a) => a.action === 'transaction.create' && a.outcome === 'succeeded'),
        kind,
      ).toBe(true);
    }
  });

  it('returns empty groups for an unknown identifier and refuses a bad one', async () => {
    const nothing = await search('nothing-like-this');
    expect(nothing).toMatchObject({
      query: 'nothing-like-this',
      kinds: [],
      transactions: [],
      events: [],
      actions: [],
    });
    const bad = await bff.call('GET', '/bff/support/search?q=', { browser: support });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'INVALID_QUERY_PARAMETER' });
    expect((await bff.call('GET', '/bff/support/search?q=x')).status).toBe(401);
  });
});
