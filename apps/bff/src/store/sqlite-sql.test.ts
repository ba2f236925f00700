import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sqliteSql } from './sqlite-sql';

describe('the SQLite driver', () => {
  it('lets a transaction wait before its BEGIN, holding every later caller behind it', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (x INTEGER)');
    let release: () => void = () => undefined;
    let asked = 0;
    const sql = sqliteSql(db, {
      beforeTransaction: () => {
        asked += 1;
        return asked === 1
          ? new Promise<void>((resolve) => {
              release = resolve;
            })
          : null;
      },
    });
    const order: string[] = [];
    const first = sql.transaction(async (tx) => {
      order.push('transaction');
      await tx.run('INSERT INTO t (x) VALUES (1)');
    });
    const read = sql.get('SELECT COUNT(*) AS n FROM t').then((row) => {
      order.push(`read ${String(row?.n)}`);
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    release();
    await Promise.all([first, read]);
    expect(order).toEqual(['transaction', 'read 1']);
    await sql.transaction((tx) => tx.run('INSERT INTO t (x) VALUES (2)'));
    expect(asked).toBe(2);
    await sql.close();
  });
});
