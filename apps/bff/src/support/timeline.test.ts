import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TimelineSchema, type Timeline } from '@settlement/protocol';
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
let created: { id: string; correlationId: string; clientReference: string };

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 20 });
  bff = await startBff({ sandbox });
  const admin = await bff.login('admin');
  const treasury = await bff.login('treasury');
  support = await bff.login('support');
  const wallet = await fundedWallet(bff, admin, treasury);
  const response = await bff.call('POST', '/bff/api/v1/transactions', {
    browser: treasury,
    body: {
      walletId: wallet.walletId,
      asset: 'TRX',
      toAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      amountAtomic: '3000000',
      clientReference: 'inv-timeline-1',
    },
    headers: { 'x-operation-id': 'timeline-wd-1' },
  });
  expect(response.status, response.text).toBe(201);
  created = response.json as typeof created;
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

async function timeline(q: string): Promise<Timeline> {
  const response = await bff.call('GET', `/bff/support/timeline?q=${encodeURIComponent(q)}`, {
    browser: support,
  });
  expect(response.status, response.text).toBe(200);
  return TimelineSchema.parse(response.json);
}

describe('GET /bff/support/timeline', () => {
  it('merges actions, upstream calls, events, balance effects and confirmations of a withdrawal in time order', async () => {
    for (const q of [created.correlationId, created.id, created.clientReference, 'timeline-wd-1']) {
      const answer = await timeline(q);
      expect(answer.kinds, q).toEqual(
        expect.arrayContaining([
          'operator-action',
          'upstream-call',
          'event',
          'balance-effect',
          'chain-confirmation',
        ]),
      );
      const times = answer.items.map((item) => Date.parse(item.at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
    const answer = await timeline(created.correlationId);
    expect(answer.matched).toContain('correlationId');
    const create = answer.items.find(
      (item) => item.kind === 'upstream-call' && item.method === 'POST',
    );
    expect(create?.ids).toMatchObject({
      operationId: 'timeline-wd-1',
      requestId: expect.any(String),
    });
    const confirmed = answer.items.find(
      (item) => item.kind === 'event' && item.type === 'transaction.confirmed',
    );
    expect(confirmed).toMatchObject({ dedupe: 'kept-first-delivery' });
    expect(confirmed?.ids).toMatchObject({
      transactionId: created.id,
      correlationId: created.correlationId,
    });
    const chain = answer.items.find((item) => item.kind === 'chain-confirmation');
    expect(chain).toMatchObject({ status: 'CONFIRMED', confirmations: expect.any(Number) });
    expect(chain?.ids.txHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses an empty query in the envelope', async () => {
    const response = await bff.call('GET', '/bff/support/timeline?q=', { browser: support });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'INVALID_QUERY_PARAMETER' });
  });
});
