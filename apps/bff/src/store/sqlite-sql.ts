import type Database from 'better-sqlite3';
import { storeError, type Sql, type SqlParam } from './sql';

type Statement = Database.Statement;

function bind(params: readonly SqlParam[]): unknown[] {
  // better-sqlite3 binds Buffers as BLOBs, not plain Uint8Arrays.
  return params.map((value) => (value instanceof Uint8Array ? Buffer.from(value) : value));
}

export type SqliteSqlOptions = {
  /**
   * Asked at each transaction's turn, before its BEGIN: a promise to wait for first, or null.
   * Meanwhile the transaction holds its place, so every later caller waits too (see openDb).
   */
  beforeTransaction?: () => Promise<unknown> | null;
};

/**
 * The SQLite driver of `Sql` over one better-sqlite3 connection. Its calls are synchronous, but
 * an async transaction yields between statements: while one is open (or queued) every other
 * caller waits its turn, so no statement of another request ever lands inside it.
 */
export function sqliteSql(db: Database.Database, options: SqliteSqlOptions = {}): Sql {
  const statements = new Map<string, Statement>();
  const prepare = (text: string): Statement => {
    let statement = statements.get(text);
    if (!statement) {
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
  const execute = {
    all(text: string, params: readonly SqlParam[]) {
      const statement = prepare(text);
      if (!statement.reader) {
        statement.run(...bind(params));
        return [];
      }
      return statement.all(...bind(params)) as Record<string, unknown>[];
    },
    run(text: string, params: readonly SqlParam[]) {
      const statement = prepare(text);
      if (statement.reader) return statement.all(...bind(params)).length;
      return statement.run(...bind(params)).changes;
    },
  };
  const attempt = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      throw storeError(error);
    }
  };

  /** Runs `fn` now; its result or error as a promise. */
  const now = <T>(fn: () => T): Promise<T> =>
    new Promise<T>((resolve) => {
      resolve(attempt(fn));
    });

  /** Transactions queued or running; callers outside one wait while it is above zero. */
  let active = 0;
  let tail: Promise<unknown> = Promise.resolve();
  const idle = async (): Promise<void> => {
    while (active > 0) await tail;
  };
  const direct = <T>(fn: () => T): Promise<T> =>
    active === 0 ? now(fn) : idle().then(() => attempt(fn));

  const inside: Sql = {
    dialect: 'sqlite',
    all: (text, params = []) => now(() => execute.all(text, params)),
    get: (text, params = []) => now(() => execute.all(text, params)[0]),
    run: (text, params = []) => now(() => execute.run(text, params)),
    transaction: (fn) => fn(inside),
    isOpen: () => db.open,
    close: () => Promise.reject(new Error('close the database outside its transaction')),
  };

  return {
    dialect: 'sqlite',
    all: (text, params = []) => direct(() => execute.all(text, params)),
    get: (text, params = []) => direct(() => execute.all(text, params)[0]),
    run: (text, params = []) => direct(() => execute.run(text, params)),
    transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      active += 1;
      const run = tail.then(async () => {
        // Awaited only when there is something to wait for: no extra turn otherwise.
        const pause = options.beforeTransaction?.();
        if (pause) await pause;
        // IMMEDIATE: take the write lock up front, so another process waits (busy_timeout)
        // instead of failing the commit of a transaction that began as a reader.
        attempt(() => db.exec('BEGIN IMMEDIATE'));
        try {
          const result = await fn(inside);
          db.exec('COMMIT');
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw error;
        }
      });
      tail = run.catch(() => undefined);
      return run.finally(() => {
        active -= 1;
      });
    },
    isOpen: () => db.open,
    async close() {
      await idle();
      if (db.open) db.close();
    },
  };
}
