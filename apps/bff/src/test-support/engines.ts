import Database from 'better-sqlite3';
import { afterAll, beforeAll } from 'vitest';
import { migrate } from '../store/db';
import { migratePostgres } from '../store/postgres-migrations';
import { postgresSql } from '../store/postgres-sql';
import type { Dialect, Sql } from '../store/sql';
import { sqliteSql } from '../store/sqlite-sql';
import { usePostgres, type TestPostgres } from './postgres';

/**
 * Test support (not a test): every engine the stores run on, for `describe.each`, so one
 * suite proves SQLite and PostgreSQL behave the same. Each `open()` is a fresh, migrated,
 * empty database; everything opened is closed after the file's tests.
 */
export type Engine = { name: Dialect; open(): Promise<Sql> };

export function storeEngines(): Engine[] {
  const opened: Sql[] = [];
  let postgres: Promise<TestPostgres> | undefined;
  // The server starts once per test process; starting it is no test's time.
  beforeAll(async () => {
    postgres ??= usePostgres();
    await postgres;
  }, 120_000);
  afterAll(async () => {
    for (const sql of opened.splice(0)) await sql.close();
    if (postgres) await (await postgres).release();
  });
  const track = (sql: Sql) => {
    opened.push(sql);
    return sql;
  };
  return [
    {
      name: 'sqlite',
      open() {
        const db = new Database(':memory:');
        db.pragma('foreign_keys = ON');
        migrate(db);
        return Promise.resolve(track(sqliteSql(db)));
      },
    },
    {
      name: 'postgres',
      async open() {
        postgres ??= usePostgres();
        const url = await (await postgres).createDatabase();
        await migratePostgres(url);
        // No idle timer: suites that fake timers count only their own.
        return track(postgresSql(url, { max: 4, idleTimeoutMs: 0 }));
      },
    },
  ];
}
