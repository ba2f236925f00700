import pg from 'pg';
import { storeError, type Row, type Sql, type SqlParam } from './sql';

/** node-postgres hands BIGINT (and COUNT) back as strings; the stores' rows hold numbers. */
const INT8_OID = pg.types.builtins.INT8;

const converted = new Map<string, string>();

/** `?` placeholders as `$1, $2 ...`; the stores' SQL has no `?` inside string literals. */
function numbered(text: string): string {
  let done = converted.get(text);
  if (done === undefined) {
    let n = 0;
    done = text.replace(/\?/g, () => `$${String((n += 1))}`);
    converted.set(text, done);
  }
  return done;
}

function bind(params: readonly SqlParam[]): unknown[] {
  return params.map((value) => (value instanceof Uint8Array ? Buffer.from(value) : value));
}

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

function over(target: Queryable, transaction: Sql['transaction'], isOpen: () => boolean): Sql {
  const query = async (text: string, params: readonly SqlParam[]) => {
    try {
      return await target.query<Row>(numbered(text), bind(params));
    } catch (error) {
      throw storeError(error);
    }
  };
  return {
    dialect: 'postgres',
    all: async (text, params = []) => (await query(text, params)).rows,
    get: async (text, params = []) => (await query(text, params)).rows[0],
    run: async (text, params = []) => (await query(text, params)).rowCount,
    transaction,
    isOpen,
    close: () => Promise.reject(new Error('close the pool, not a connection of it')),
  };
}

export type PostgresOptions = {
  /** Connections in this process's pool (each replica has its own). */
  max?: number;
  /** How long an idle connection stays open; 0 keeps it (node-postgres' idleTimeoutMillis). */
  idleTimeoutMs?: number;
};

/**
 * The PostgreSQL driver of `Sql` over a `pg.Pool`: a statement takes any free connection, a
 * transaction holds one from BEGIN to COMMIT. The URL (with its password) never reaches a log.
 */
export function postgresSql(connectionString: string, options: PostgresOptions = {}): Sql {
  // Epoch milliseconds and counts fit a double exactly (below 2^53).
  pg.types.setTypeParser(INT8_OID, (value: string) => Number(value));
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    idleTimeoutMillis: options.idleTimeoutMs ?? 10_000,
  });
  // An idle connection the server dropped must not take the process down; the next query
  // opens another.
  pool.on('error', () => undefined);
  let isOpen = true;

  async function transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let isBroken = false;
    // The pool listens for a connection's errors only while it is idle: one lost while checked
    // out between two statements (a failover, pg_terminate_backend) would be an unhandled
    // 'error' event that ends the process. Here it fails this transaction's next statement.
    const onError = () => {
      isBroken = true;
    };
    client.on('error', onError);
    const tx: Sql = over(
      client,
      (inner) => inner(tx),
      () => isOpen,
    );
    try {
      await client.query('BEGIN');
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        isBroken = true;
      }
      throw storeError(error);
    } finally {
      client.off('error', onError);
      client.release(isBroken);
    }
  }

  const sql = over(pool, transaction, () => isOpen);
  return {
    ...sql,
    async close() {
      if (!isOpen) return;
      isOpen = false;
      await pool.end();
    },
  };
}
