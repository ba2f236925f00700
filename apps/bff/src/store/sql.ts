import { HttpError } from '../errors';

/**
 * The one door every BFF store goes through, for SQLite (the embedded default) and PostgreSQL
 * alike. Stores are written once against it in the SQL both engines speak (`?` placeholders,
 * `ON CONFLICT`, `RETURNING`); the few spots where the dialects part ask `sql.dialect`. One
 * implementation per concern over two drivers means the engines cannot drift apart
 * (docs/decisions/010-one-store-two-engines.md).
 */
export type Dialect = 'sqlite' | 'postgres';

/** A bound value: integers as numbers (BIGINT comes back as a number too), bytes as Uint8Array. */
export type SqlParam = string | number | null | Uint8Array;

export type Row = Record<string, unknown>;

export type Sql = {
  readonly dialect: Dialect;
  /** Every row the statement returns (a write with RETURNING included). */
  all(text: string, params?: readonly SqlParam[]): Promise<Row[]>;
  /** The first row, or undefined. */
  get(text: string, params?: readonly SqlParam[]): Promise<Row | undefined>;
  /** A write; returns how many rows it changed. */
  run(text: string, params?: readonly SqlParam[]): Promise<number>;
  /**
   * Runs `fn` in one transaction on one connection; commits when it resolves, rolls back when
   * it throws. Inside, `tx` is that connection (a nested call joins the outer transaction).
   * Inside, use `tx` only: awaiting the outer `Sql` there waits, on SQLite, for this very
   * transaction to end.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** False once `close` began: deferred writes (the request log's) then have nowhere to go. */
  isOpen(): boolean;
  /**
   * After a run of writes, lets the engine tidy its write-ahead log off the event loop: on
   * SQLite one checkpoint in the worker, so the next commit restarts the WAL instead of growing
   * it to the fallback checkpoint inside a COMMIT. Absent where there is nothing to do.
   */
  settleLog?: () => Promise<void>;
  close(): Promise<void>;
};

/** `?, ?, ?` for an IN list of `count` values (both engines). */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/** Case-insensitive "contains" in the engine's own function. */
export function containsText(sql: Sql, column: string): string {
  return sql.dialect === 'postgres'
    ? `strpos(lower(${column}), lower(?)) > 0`
    : `instr(lower(${column}), lower(?)) > 0`;
}

/** A text field of a JSON object stored as text. */
export function jsonText(sql: Sql, column: string, field: string): string {
  return sql.dialect === 'postgres'
    ? `(${column}::jsonb ->> '${field}')`
    : `json_extract(${column}, '$.${field}')`;
}

/** The table a unique constraint belongs to decides the envelope a duplicate gets. */
const DUPLICATE_CODES = {
  operators: 'OPERATOR_EXISTS',
  address_book: 'ADDRESS_BOOK_DUPLICATE',
} as const;

/**
 * A constraint or input error of either engine as the BFF's one error type: a duplicate is a
 * 409 (another request, possibly on another replica, stored it first), a value the database
 * refuses is a 400; never a 500 for what the caller sent. Anything else passes through.
 */
export function storeError(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof HttpError) return error;
  const { code, table, message } = error as Error & { code?: unknown; table?: unknown };
  const sqliteTable = /^UNIQUE constraint failed: (\w+)\./.exec(message)?.[1];
  const isDuplicate =
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  if (isDuplicate) {
    const name = typeof table === 'string' ? table : (sqliteTable ?? '');
    const known =
      name in DUPLICATE_CODES ? DUPLICATE_CODES[name as keyof typeof DUPLICATE_CODES] : null;
    return new HttpError(
      known ?? 'IDEMPOTENCY_CONFLICT',
      known ? undefined : 'This was stored by a concurrent request first. Reload and try again.',
    );
  }
  // PostgreSQL class 22 (data exception: a string too long, a number out of range, a byte
  // sequence that is not UTF-8) and a CHECK constraint of either engine: the value itself is
  // not valid.
  const isCheck = code === '23514' || code === 'SQLITE_CONSTRAINT_CHECK';
  if ((typeof code === 'string' && code.startsWith('22')) || isCheck) {
    return new HttpError('VALIDATION_ERROR', 'A value is not valid for storage.');
  }
  return error;
}
