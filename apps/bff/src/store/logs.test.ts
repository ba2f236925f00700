import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { storeEngines, type Engine } from '../test-support/engines';
import { expectIndexedOr, explaining } from '../test-support/explaining';
import { createLogStore, type RequestLogEntry } from './logs';

function entry(requestIdSent: string): RequestLogEntry {
  return {
    at: 1,
    operator: 'treasury',
    operation: 'listAccounts',
    operationId: null,
    method: 'GET',
    path: '/api/v1/ledger/accounts',
    attempt: 1,
    status: 200,
    durationMs: 3,
    requestIdSent,
    upstreamRequestId: `up-${requestIdSent}`,
    correlationId: 'corr-1',
    idempotencyKey: null,
    error: null,
    keyId: null,
    signedTimestamp: null,
    nonce: null,
    bodyHash: null,
    upstreamDate: null,
    errorCode: null,
    errorMessage: null,
    errorDetails: null,
  };
}

async function open(engine: Engine) {
  const sql = await engine.open();
  const errors: unknown[] = [];
  const logs = createLogStore(sql, (error) => errors.push(error));
  const count = async () =>
    z.object({ n: z.number() }).parse(await sql.get('SELECT COUNT(*) AS n FROM request_log')).n;
  return { sql, logs, errors, count };
}

describe.each(storeEngines())('request log ($name)', (engine) => {
  // The batch timer is driven by hand: no test waits on the wall clock.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes queued rows together once the batch delay has passed, in order', async () => {
    const { logs, count } = await open(engine);
    logs.request(entry('a'));
    logs.request(entry('b'));
    vi.advanceTimersByTime(49);
    expect(vi.getTimerCount()).toBe(1);
    expect(await count()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(vi.getTimerCount()).toBe(0);
    await vi.waitFor(async () => {
      expect(await count()).toBe(2);
    });
    expect((await logs.recentRequests(10)).map((row) => row.requestIdSent)).toEqual(['b', 'a']);
  });

  it('writes at once when 256 rows are queued (bounded queue)', async () => {
    const { logs, count } = await open(engine);
    for (let i = 0; i < 255; i += 1) logs.request(entry(`r${String(i)}`));
    expect(await count()).toBe(0);
    logs.request(entry('last'));
    // The batch timer is gone: the write began without it.
    expect(vi.getTimerCount()).toBe(0);
    await vi.waitFor(async () => {
      expect(await count()).toBe(256);
    });
  });

  it('writes a large batch in chunks of 16 rows, in order, with a turn of the event loop between them', async () => {
    const { sql, logs, count } = await open(engine);
    // Each INSERT's row count, and how many turns of the event loop had passed when it ran.
    const inserts: { rows: number; turns: number }[] = [];
    let turns = 0;
    let isTicking = true;
    const tick = () => {
      turns += 1;
      if (isTicking) setImmediate(tick);
    };
    setImmediate(tick);
    const run = sql.run.bind(sql);
    sql.run = (text, params) => {
      if (text.startsWith('INSERT INTO request_log')) {
        inserts.push({ rows: (params?.length ?? 0) / 22, turns });
      }
      return run(text, params);
    };
    for (let i = 0; i < 40; i += 1) logs.request(entry(`r${String(i).padStart(2, '0')}`));
    await logs.flush();
    isTicking = false;
    expect(inserts.map((insert) => insert.rows)).toEqual([16, 16, 8]);
    // No chunk ran in the same turn as the one before it: waiting requests got a turn.
    for (let i = 1; i < inserts.length; i += 1) {
      expect(inserts[i]?.turns).toBeGreaterThan(inserts[i - 1]?.turns ?? Infinity);
    }
    expect(await count()).toBe(40);
    const rows = await logs.recentRequests(40);
    expect(rows.map((row) => row.requestIdSent).reverse()).toEqual(
      Array.from({ length: 40 }, (_, i) => `r${String(i).padStart(2, '0')}`),
    );
  });

  it('flushes queued rows before any read, so a search sees the call just made', async () => {
    const { logs } = await open(engine);
    logs.request(entry('c'));
    expect((await logs.findRequests('corr-1')).map((row) => row.upstreamRequestId)).toEqual([
      'up-c',
    ]);
  });

  it('reports a deferred write failure instead of throwing out of the timer', async () => {
    const { sql, logs, errors, count } = await open(engine);
    logs.request(entry('d'));
    await sql.run('DROP TABLE request_log');
    vi.runOnlyPendingTimers();
    await vi.waitFor(() => {
      expect(errors).toHaveLength(1);
    });
    await expect(count()).rejects.toThrow();
  });

  it('indexes idempotency keys and correlation ids only where set, and finds rows by them', async () => {
    const { sql, logs } = await open(engine);
    const definition = async (index: string) =>
      z
        .object({ def: z.string() })
        .parse(
          await sql.get(
            engine.name === 'sqlite'
              ? 'SELECT sql AS def FROM sqlite_master WHERE name = ?'
              : 'SELECT indexdef AS def FROM pg_indexes WHERE indexname = ?',
            [index],
          ),
        ).def;
    // A read's row has no key: the partial index takes no entry for it.
    expect(await definition('request_log_idempotency_key')).toMatch(
      /WHERE \(?idempotency_key IS NOT NULL\)?/i,
    );
    expect(await definition('request_log_correlation_id')).toMatch(
      /WHERE \(?correlation_id IS NOT NULL\)?/i,
    );
    logs.request(entry('read'));
    logs.request({ ...entry('write'), method: 'POST', idempotencyKey: 'key-1' });
    const first = await logs.firstUseOfKey('key-1', 1_000);
    expect(first?.requestIdSent).toBe('write');
    expect((await logs.findRequests('corr-1')).map((r) => r.requestIdSent)).toEqual([
      'read',
      'write',
    ]);
    if (engine.name === 'sqlite') {
      const plan = await sql.all(
        'EXPLAIN QUERY PLAN SELECT * FROM request_log WHERE idempotency_key = ? AND id < ? ORDER BY id LIMIT 1',
        ['key-1', 1_000],
      );
      expect(JSON.stringify(plan)).toContain('request_log_idempotency_key');
    }
  });

  it("finds request-log and audit rows by any of their ids through indexes, the operation id's included, never by reading every row", async () => {
    const { sql, logs } = await open(engine);
    // Stored reads (no operation id), as the proxy writes them, around one journaled write.
    await sql.run(
      `WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
       INSERT INTO request_log (at, operation, method, path, attempt, status, duration_ms,
         request_id_sent, upstream_request_id, correlation_id)
       SELECT i, 'accounts.list', 'GET', '/api/v1/ledger/accounts', 1, 200, 1, 'sent-' || i,
         'up-' || i, 'corr-' || i FROM n`,
    );
    await sql.run(
      `WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
       INSERT INTO audit_log (at, operator, action, outcome, resource_id)
       SELECT i, 'treasury', 'account.create', 'succeeded', 'acc-' || i FROM n`,
    );
    logs.request({
      ...entry('sent-write'),
      at: 30_000,
      method: 'POST',
      operationId: 'op-1',
      idempotencyKey: 'key-1',
    });
    await logs.audit({
      at: 30_000,
      operator: 'treasury',
      action: 'transaction.create',
      outcome: 'succeeded',
      operationId: 'op-1',
      idempotencyKey: 'key-1',
      upstreamRequestId: null,
      correlationId: null,
      resourceId: null,
      detail: null,
    });
    await logs.flush();
    if (engine.name === 'postgres') await sql.run('ANALYZE');

    const plans: string[] = [];
    const planned = createLogStore(
      explaining(
        sql,
        (text) => /^SELECT \* FROM (request|audit)_log WHERE upstream/.test(text),
        plans,
      ),
      () => undefined,
    );
    expect((await planned.findRequests('op-1')).map((r) => r.requestIdSent)).toEqual([
      'sent-write',
    ]);
    expect((await planned.findAudit('op-1')).map((r) => r.action)).toEqual(['transaction.create']);
    expect((await planned.findRequests('up-7')).map((r) => r.requestIdSent)).toEqual(['sent-7']);
    expect((await planned.findAudit('acc-7')).map((r) => r.resourceId)).toEqual(['acc-7']);
    expect(plans).toHaveLength(4);
    plans.forEach((plan, i) => {
      expectIndexedOr(plan, sql.dialect, i % 2 === 0 ? 'request_log' : 'audit_log');
    });
    const [requests = '', audit = ''] = plans;
    expect(requests).toMatch(/request_log_operation_id/);
    expect(audit).toMatch(/audit_log_operation_id/);
  });

  it('drops queued rows quietly once the database is closed', async () => {
    const { sql, logs, errors } = await open(engine);
    logs.request(entry('e'));
    await sql.close();
    expect(vi.getTimerCount()).toBe(1);
    vi.runOnlyPendingTimers();
    expect(vi.getTimerCount()).toBe(0);
    await logs.flush();
    expect(errors).toEqual([]);
  });
});
