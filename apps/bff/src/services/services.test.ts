import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { AttemptRecord } from '@settlement/client';
import { createLogger } from '../logger';
import { migrate } from '../store/db';
import { sqliteSql } from '../store/sqlite-sql';
import { createLogStore } from '../store/logs';
import { recordAttempts } from './services';

function attempt(overrides: Partial<AttemptRecord>): AttemptRecord {
  return {
    attempt: 1,
    method: 'GET',
    target: '/api/v1/transactions?limit=5',
    idempotencyKey: null,
    requestIdSent: 'bff_1',
    status: 200,
    upstreamRequestId: 'req_1',
    correlationId: null,
    durationMs: 4,
    error: null,
    signed: null,
    upstreamDate: null,
    upstreamError: null,
    ...overrides,
  };
}

describe('recordAttempts', () => {
  it('logs a plain first-attempt answer at debug, a retry, 5xx or error at info, and keeps every row', async () => {
    const lines: { level: number; status: number | null; path: string }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line) lines.push(JSON.parse(line) as (typeof lines)[number]);
        callback();
      },
    });
    const db = new Database(':memory:');
    migrate(db);
    const logs = createLogStore(sqliteSql(db), () => undefined);
    const record = recordAttempts(
      { logs, logger: createLogger('debug', sink), now: () => 1 },
      { operator: 'support', operation: 'listTransactions', operationId: null },
    );
    record(attempt({}));
    record(attempt({ status: 503 }));
    record(attempt({ attempt: 2, status: 200 }));
    record(attempt({ status: null, error: 'timeout' }));
    expect(lines.map((line) => [line.level, line.status])).toEqual([
      [20, 200],
      [30, 503],
      [30, 200],
      [30, null],
    ]);
    expect(lines[0]?.path).toBe('/api/v1/transactions');
    expect(await logs.recentRequests(10)).toHaveLength(4);
  });
});
