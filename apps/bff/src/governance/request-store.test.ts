import { describe, expect, it } from 'vitest';
import { insertWithdrawalRequests } from '../test-support/bulk-rows';
import { heldDecision } from '../test-support/decisions';
import { storeEngines, type Engine } from '../test-support/engines';
import { explaining, expectReadInIndexOrder } from '../test-support/explaining';
import { createRequestStore, type NewRequest } from './request-store';

const HOUR = 3_600_000;

const decision = heldDecision(2);

async function setup(engine: Engine) {
  let clock = 1_000_000;
  const store = createRequestStore(await engine.open(), () => clock);
  const input = (operationId: string): NewRequest => ({
    operationId,
    requester: 'treasury',
    walletId: 'w1',
    accountId: 'a1',
    chain: 'tron:nile',
    asset: 'TRX',
    toAddress: 'T1',
    amountAtomic: '5',
    clientReference: null,
    body: new Uint8Array([123, 125]),
    decision,
    approvalsRequired: { count: 2, fromRoles: ['admin'] },
    expiresAt: clock + 24 * HOUR,
  });
  return {
    store,
    input,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe.each(storeEngines())('request store ($name)', (engine) => {
  it('reaches APPROVED only on the quorum, and exactly one approval learns it was the last', async () => {
    const { store, input } = await setup(engine);
    const { request } = await store.create(input('op-1'));
    expect(await store.approve(request.id, 'admin', 'admin')).toMatchObject({ isLast: false });
    expect(await store.approve(request.id, 'admin', 'admin')).toMatchObject({
      kind: 'already-approved',
    });
    const last = await store.approve(request.id, 'admin2', 'admin');
    expect(last).toMatchObject({ kind: 'approved', isLast: true });
    expect((await store.get(request.id))?.status).toBe('APPROVED');
    expect(await store.approve(request.id, 'admin3', 'admin')).toMatchObject({
      kind: 'not-pending',
    });
    expect(await store.markSubmitted(request.id, 'tx-1', null)).toBe(true);
    expect(await store.markSubmitted(request.id, 'tx-2', null)).toBe(false);
    expect((await store.get(request.id))?.transactionId).toBe('tx-1');
  });

  it('keeps one request per operation id', async () => {
    const { store, input } = await setup(engine);
    const first = await store.create(input('op-1'));
    const second = await store.create(input('op-1'));
    expect(second).toEqual({ request: first.request, isNew: false });
  });

  it('expires requests awaiting approval at their expiry time (injected clock), not before', async () => {
    const { store, input, advance } = await setup(engine);
    const { request } = await store.create(input('op-1'));
    const other = (await store.create(input('op-2'))).request;
    expect(await store.cancel(other.id)).toBe(true);
    advance(24 * HOUR - 1);
    expect(await store.expireDue()).toEqual([]);
    advance(1);
    expect(await store.expireDue()).toEqual([request.id]);
    expect((await store.get(request.id))?.status).toBe('EXPIRED');
    expect((await store.get(other.id))?.status).toBe('CANCELLED');
    expect(await store.approve(request.id, 'admin', 'admin')).toMatchObject({
      kind: 'not-pending',
    });
  });
});

describe.each(storeEngines())('request lists at size ($name)', (engine) => {
  it('reads the newest requests in order for the whole list, without sorting every request', async () => {
    const sql = await engine.open();
    await insertWithdrawalRequests(sql, 20_000);
    if (engine.name === 'postgres') await sql.run('ANALYZE');
    const plans: string[] = [];
    const store = createRequestStore(
      explaining(
        sql,
        (text) => text.startsWith('SELECT * FROM withdrawal_requests ORDER BY'),
        plans,
      ),
    );
    const newest = await store.list(null, 3);
    expect(newest.map((request) => request.id)).toEqual(['wr-20000', 'wr-19999', 'wr-19998']);
    const [plan = ''] = plans;
    expect(plans).toHaveLength(1);
    expectReadInIndexOrder(plan, sql.dialect, 'withdrawal_requests', 'withdrawal_requests_newest');
  });
});
