import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { usePostgres, type TestPostgres } from '../test-support/postgres';
import { postgresSql } from './postgres-sql';
import type { Sql } from './sql';

let postgres: TestPostgres;
let url: string;
let db: Sql;

beforeAll(async () => {
  postgres = await usePostgres();
  url = await postgres.createDatabase();
  db = postgresSql(url, { max: 2, idleTimeoutMs: 0 });
}, 120_000);

afterAll(async () => {
  await db.close();
  await postgres.release();
});

async function admin<T extends pg.QueryResultRow>(sql: string, values: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

describe('postgresSql', () => {
  // Found by the fault campaign (pg_terminate_backend, two replicas): the pool listens for a
  // connection's errors only while it is idle, so a transaction's connection lost between two
  // statements threw an unhandled 'error' event and ended the replica.
  it('fails a transaction whose connection is terminated between statements, and lives on', async () => {
    const attempt = db.transaction(async (tx) => {
      const row = await tx.get('SELECT pg_backend_pid() AS pid');
      const pid = Number(row?.pid);
      await admin('SELECT pg_terminate_backend($1)', [pid]);
      await vi.waitFor(
        async () => {
          const rows = await admin('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
          expect(rows).toHaveLength(0);
        },
        { timeout: 10_000 },
      );
      // Every socket readable by now is read in this turn's poll phase (the server sent its
      // FATAL before it exited): the connection error has reached the client.
      await new Promise((resolve) => setImmediate(resolve));
      return 'committed';
    });
    await expect(attempt).rejects.toThrow();
    expect(await db.get('SELECT 1 AS one')).toEqual({ one: 1 });
  });
});
