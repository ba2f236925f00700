import { describe, expect, it } from 'vitest';
import { storeEngines, type Engine } from '../test-support/engines';
import { expectIndexedOr, explaining } from '../test-support/explaining';
import { createJournalStore } from './journal';

async function open(engine: Engine) {
  let clock = 1_000;
  const journal = createJournalStore(await engine.open(), () => clock);
  const tick = () => (clock += 1);
  await journal.begin({
    operationId: 'op-1',
    operator: 'treasury',
    operation: 'transactions.create',
    idempotencyKey: 'op-key',
    method: 'POST',
    path: '/api/v1/transactions',
    requestHash: 'hash',
    body: new Uint8Array([123, 125]),
    bodyHash: 'body-hash',
    clientReference: 'ref-1',
  });
  const lose = async () => {
    tick();
    await journal.finish('op-1', {
      state: 'unknown',
      status: 503,
      response: null,
      upstreamRequestId: 'up-1',
      correlationId: null,
    });
  };
  return { journal, tick, lose };
}

describe.each(storeEngines())('journal abandon ($name)', (engine) => {
  it('abandons an unknown outcome seen unchanged, and then never marks it pending again', async () => {
    const { journal, tick, lose } = await open(engine);
    await lose();
    const seen = await journal.get('op-1');
    tick();
    expect(await journal.abandon('op-1', seen?.updatedAt ?? 0)).toBe(true);
    expect((await journal.get('op-1'))?.state).toBe('abandoned');
    expect(await journal.markPending('op-1')).toBe(false);
    expect((await journal.get('op-1'))?.state).toBe('abandoned');
  });

  it('refuses to abandon a row that changed since it was read (a retry got there first)', async () => {
    const { journal, tick, lose } = await open(engine);
    await lose();
    const seen = await journal.get('op-1');
    tick();
    expect(await journal.markPending('op-1')).toBe(true);
    expect(await journal.abandon('op-1', seen?.updatedAt ?? 0)).toBe(false);
    await lose();
    expect(await journal.abandon('op-1', seen?.updatedAt ?? 0)).toBe(false);
    expect((await journal.get('op-1'))?.state).toBe('unknown');
  });

  it('never abandons a pending or settled operation', async () => {
    const { journal } = await open(engine);
    const pending = await journal.get('op-1');
    expect(await journal.abandon('op-1', pending?.updatedAt ?? 0)).toBe(false);
    await journal.finish('op-1', {
      state: 'succeeded',
      status: 201,
      response: new Uint8Array(),
      upstreamRequestId: null,
      correlationId: null,
    });
    expect(await journal.abandon('op-1', (await journal.get('op-1'))?.updatedAt ?? 0)).toBe(false);
    expect(await journal.markPending('op-1')).toBe(false);
  });
});

describe.each(storeEngines())('journal outcomes ($name)', (engine) => {
  const settle = (state: 'succeeded' | 'failed') => ({
    state,
    status: state === 'succeeded' ? 201 : 422,
    response: new Uint8Array([123, 125]),
    upstreamRequestId: `up-${state}`,
    correlationId: null,
  });

  it('never lets a late "unknown" hide an answer another replica recorded', async () => {
    const { journal, lose } = await open(engine);
    expect(await journal.finish('op-1', settle('succeeded'))).toBe(true);
    await lose();
    expect(await journal.get('op-1')).toMatchObject({ state: 'succeeded', status: 201 });
  });

  it('lets a definite answer replace an unknown or abandoned outcome, never another answer', async () => {
    const { journal, lose } = await open(engine);
    await lose();
    expect(await journal.finish('op-1', settle('succeeded'))).toBe(true);
    expect(await journal.finish('op-1', settle('failed'))).toBe(false);
    expect(await journal.get('op-1')).toMatchObject({ state: 'succeeded', status: 201 });

    const other = await open(engine);
    await other.lose();
    other.tick();
    const seen = await other.journal.get('op-1');
    expect(await other.journal.abandon('op-1', seen?.updatedAt ?? 0)).toBe(true);
    // The upstream's own answer is the truth, even for an operation given up on.
    expect(await other.journal.finish('op-1', settle('failed'))).toBe(true);
    expect((await other.journal.get('op-1'))?.state).toBe('failed');
  });
});

describe.each(storeEngines())('journal stamps ($name)', (engine) => {
  it('changes updated_at on every write, even two in one millisecond (the compare-and-set sees it)', async () => {
    // The injected clock stands still (SQLite), and PostgreSQL's writes here are sub-millisecond.
    const { journal, lose } = await open(engine);
    await lose();
    const seen = await journal.get('op-1');
    expect(await journal.markPending('op-1')).toBe(true);
    // Lost again, without a tick of the injected clock.
    await journal.finish('op-1', {
      state: 'unknown',
      status: 503,
      response: null,
      upstreamRequestId: 'up-2',
      correlationId: null,
    });
    const after = await journal.get('op-1');
    expect(after?.updatedAt).toBeGreaterThan(seen?.updatedAt ?? Infinity);
    expect(await journal.abandon('op-1', seen?.updatedAt ?? 0)).toBe(false);
    expect(await journal.abandon('op-1', after?.updatedAt ?? 0)).toBe(true);
  });

  it("reads a row's age on the clock that stamped it", async () => {
    const { journal, tick } = await open(engine);
    const fresh = await journal.get('op-1');
    expect(fresh?.ageMs).toBeGreaterThanOrEqual(0);
    expect(fresh?.ageMs).toBeLessThan(5_000);
    for (let i = 0; i < 10; i += 1) tick();
    const later = await journal.get('op-1');
    // SQLite reads the injected clock; PostgreSQL its own, which the injected one cannot move.
    if (engine.name === 'sqlite') expect(later?.ageMs).toBe((fresh?.ageMs ?? 0) + 10);
    else expect(later?.ageMs).toBeLessThan(5_000);
  });
});

describe.each(storeEngines())('journal search ($name)', (engine) => {
  it('finds an operation by any of its five ids through indexes, never by reading every entry', async () => {
    const sql = await engine.open();
    await sql.run(
      `WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
       INSERT INTO journal (operation_id, operator, operation, idempotency_key, method, path,
         request_hash, body, body_hash, client_reference, state, status, upstream_request_id,
         correlation_id, created_at, updated_at)
       SELECT 'op-' || i, 'treasury', 'transactions.create', 'key-' || i, 'POST',
         '/api/v1/transactions', 'hash', ?, 'body-hash', 'ref-' || i, 'succeeded', 201,
         'up-' || i, 'corr-' || i, i, i FROM n`,
      [new Uint8Array([123, 125])],
    );
    if (engine.name === 'postgres') await sql.run('ANALYZE');
    const plans: string[] = [];
    const journal = createJournalStore(
      explaining(sql, (text) => text.includes('WHERE idempotency_key = ? OR'), plans),
    );
    for (const q of ['key-7', 'ref-7', 'op-7', 'up-7', 'corr-7']) {
      expect((await journal.search(q)).map((entry) => entry.operationId)).toEqual(['op-7']);
    }
    expect(plans).toHaveLength(5);
    for (const plan of plans) expectIndexedOr(plan, sql.dialect, 'journal');
  });
});
