import Database from 'better-sqlite3';
import { afterAll } from 'vitest';
import { migrate } from '../store/db';
import type { Dialect, Sql } from '../store/sql';
import { sqliteSql } from '../store/sqlite-sql';

/**
 * Test support (not a test): every engine the stores run on, for `describe.each`, so one
 * suite proves SQLite and PostgreSQL behave the same. Each `open()` is a fresh, migrated,
 * empty database; everything opened is closed after the file's tests.
 */
export type Engine = { name: Dialect; open(): Promise<Sql> };

export function storeEngines(): Engine[] {
  const opened: Sql[] = [];
  afterAll(async () => {
    for (const sql of opened.splice(0)) await sql.close();
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
  ];
}
