import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { migrate } from './db';
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

function open() {
  const db = new Database(':memory:');
  migrate(db);
  const errors: unknown[] = [];
  const logs = createLogStore(db, (error) => errors.push(error));
  const count = () =>
    (db.prepare('SELECT COUNT(*) AS n FROM request_log').get() as { n: number }).n;
  return { db, logs, errors, count };
}

describe('request log', () => {
  // The batch timer is driven by hand: no test waits on the wall clock.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes queued rows together once the batch delay has passed, in order', () => {
    const { logs, count } = open();
    logs.request(entry('a'));
    logs.request(entry('b'));
    vi.advanceTimersByTime(49);
    expect(count()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(count()).toBe(2);
    expect(logs.recentRequests(10).map((row) => row.requestIdSent)).toEqual(['b', 'a']);
  });

  it('writes at once when 256 rows are queued (bounded queue)', () => {
    const { logs, count } = open();
    for (let i = 0; i < 255; i += 1) logs.request(entry(`r${String(i)}`));
    expect(count()).toBe(0);
    logs.request(entry('last'));
    expect(count()).toBe(256);
  });

  it('flushes queued rows before any read, so a search sees the call just made', () => {
    const { logs } = open();
    logs.request(entry('c'));
    expect(logs.findRequests('corr-1').map((row) => row.upstreamRequestId)).toEqual(['up-c']);
  });

  it('reports a deferred write failure instead of throwing out of the timer', () => {
    const { db, logs, errors, count } = open();
    logs.request(entry('d'));
    db.exec('DROP TABLE request_log');
    vi.runOnlyPendingTimers();
    expect(errors).toHaveLength(1);
    expect(() => count()).toThrow();
  });

  it('drops queued rows quietly once the database is closed', () => {
    const { db, logs, errors } = open();
    logs.request(entry('e'));
    db.close();
    expect(vi.getTimerCount()).toBe(1);
    vi.runOnlyPendingTimers();
    expect(vi.getTimerCount()).toBe(0);
    expect(errors).toEqual([]);
  });
});
