import { OperationStateSchema, type OperationState } from '@settlement/protocol';
import { z } from 'zod';
import { placeholders, type Sql, type SqlParam } from './sql';

type JournalState = OperationState;

export type JournalEntry = {
  operationId: string;
  operator: string;
  operation: string;
  idempotencyKey: string;
  method: string;
  path: string;
  /** SHA-256 of what the console sent: the conflict check for a reused operation id. */
  requestHash: string;
  /** The exact bytes sent upstream (resent unchanged on every retry). */
  body: Uint8Array;
  bodyHash: string;
  clientReference: string | null;
  state: JournalState;
  status: number | null;
  response: Uint8Array | null;
  upstreamRequestId: string | null;
  correlationId: string | null;
  createdAt: number;
  /** Bumped by every write of the row, so a compare-and-set on it sees any change. */
  updatedAt: number;
  /**
   * How long ago the row last changed, on the clock that stamped it: the database's when the
   * replicas share one, so a pending row's lease never depends on whose clock reads it.
   */
  ageMs: number;
};

const RowSchema = z.object({
  operation_id: z.string(),
  operator: z.string(),
  operation: z.string(),
  idempotency_key: z.string(),
  method: z.string(),
  path: z.string(),
  request_hash: z.string(),
  body: z.instanceof(Buffer),
  body_hash: z.string(),
  client_reference: z.string().nullable(),
  state: OperationStateSchema,
  status: z.number().int().nullable(),
  response: z.instanceof(Buffer).nullable(),
  upstream_request_id: z.string().nullable(),
  correlation_id: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  /** The database's clock when it read the row (PostgreSQL only, see `clock` below). */
  clock_ms: z.number().int().optional(),
});

function toEntry(row: unknown, now: () => number): JournalEntry | null {
  if (row === undefined) return null;
  const r = RowSchema.parse(row);
  return {
    operationId: r.operation_id,
    operator: r.operator,
    operation: r.operation,
    idempotencyKey: r.idempotency_key,
    method: r.method,
    path: r.path,
    requestHash: r.request_hash,
    body: new Uint8Array(r.body),
    bodyHash: r.body_hash,
    clientReference: r.client_reference,
    state: r.state,
    status: r.status,
    response: r.response ? new Uint8Array(r.response) : null,
    upstreamRequestId: r.upstream_request_id,
    correlationId: r.correlation_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    ageMs: (r.clock_ms ?? now()) - r.updated_at,
  };
}

/** Epoch milliseconds on PostgreSQL's clock, read when the statement runs. */
const POSTGRES_CLOCK_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

type NewJournalEntry = Pick<
  JournalEntry,
  | 'operationId'
  | 'operator'
  | 'operation'
  | 'idempotencyKey'
  | 'method'
  | 'path'
  | 'requestHash'
  | 'body'
  | 'bodyHash'
  | 'clientReference'
>;

type Outcome = {
  state: Exclude<JournalState, 'pending' | 'abandoned'>;
  status: number | null;
  response: Uint8Array | null;
  upstreamRequestId: string | null;
  correlationId: string | null;
};

/** The states each outcome may replace: never a surer one (see `finish`). */
const REPLACEABLE_BY: Record<Outcome['state'], readonly JournalState[]> = {
  succeeded: ['pending', 'unknown', 'abandoned'],
  failed: ['pending', 'unknown', 'abandoned'],
  unknown: ['pending'],
};

export type JournalStore = {
  get(operationId: string): Promise<JournalEntry | null>;
  /**
   * Claims the operation id with a pending row (one atomic insert-if-absent, so of two
   * replicas only one claims it); false when the operation id already exists.
   */
  begin(entry: NewJournalEntry): Promise<boolean>;
  /** Marks an open outcome as being sent again; false when it is no longer open. */
  markPending(operationId: string): Promise<boolean>;
  /**
   * Marks an unknown outcome abandoned; false when its row changed since `seenUpdatedAt`
   * (a retry or a reconciliation got there first).
   */
  abandon(operationId: string, seenUpdatedAt: number): Promise<boolean>;
  /**
   * Records an outcome; false when the row already holds a surer one. A definite answer
   * (succeeded, failed) replaces a pending, unknown or abandoned row; "unknown" replaces only
   * a pending one, so a slow sender whose lease ran out never hides what another replica
   * found (the fault campaign saw a reconciled withdrawal turned back to "unknown").
   */
  finish(operationId: string, outcome: Outcome): Promise<boolean>;
  search(q: string): Promise<JournalEntry[]>;
  /** Completed entries older than the idempotency window are of no further use. */
  pruneBefore(at: number): Promise<number>;
};

/**
 * `now` stamps the rows of a database this process alone writes (SQLite). Replicas sharing
 * PostgreSQL may disagree on the time: there the database's clock stamps every row and reads
 * its age, so a replica whose clock runs ahead never takes over another's live pending call.
 */
export function createJournalStore(db: Sql, now: () => number = Date.now): JournalStore {
  const isShared = db.dialect === 'postgres';
  /** The time a write stamps: SQL text and its parameters (none on the database's clock). */
  const clock = (): { text: string; params: SqlParam[] } =>
    isShared ? { text: POSTGRES_CLOCK_MS, params: [] } : { text: '?', params: [now()] };
  /**
   * `updated_at` of a write: the clock, yet always past the previous value, so two writes in
   * one millisecond still differ for `abandon`'s compare-and-set.
   */
  const bumped = () => {
    const at = clock();
    const larger = isShared ? 'GREATEST' : 'MAX';
    return { text: `${larger}(${at.text}, updated_at + 1)`, params: at.params };
  };
  const SELECT = isShared
    ? `SELECT *, ${POSTGRES_CLOCK_MS} AS clock_ms FROM journal`
    : 'SELECT * FROM journal';
  const read = (row: unknown) => toEntry(row, now);
  return {
    get: async (operationId) =>
      read(await db.get(`${SELECT} WHERE operation_id = ?`, [operationId])),
    async begin(entry) {
      const at = clock();
      const changes = await db.run(
        `INSERT INTO journal (operation_id, operator, operation, idempotency_key, method, path,
           request_hash, body, body_hash, client_reference, state, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ${at.text}, ${at.text})
         ON CONFLICT (operation_id) DO NOTHING`,
        [
          entry.operationId,
          entry.operator,
          entry.operation,
          entry.idempotencyKey,
          entry.method,
          entry.path,
          entry.requestHash,
          entry.body,
          entry.bodyHash,
          entry.clientReference,
          ...at.params,
          ...at.params,
        ],
      );
      return changes > 0;
    },
    // Only an open outcome may be sent again: an abandoned operation never is, even when a
    // retry and the abandon race (the conditional update lets exactly one of them win).
    markPending: async (operationId) => {
      const at = bumped();
      return (
        (await db.run(
          `UPDATE journal SET state = 'pending', updated_at = ${at.text}
             WHERE operation_id = ? AND state IN ('pending', 'unknown')`,
          [...at.params, operationId],
        )) > 0
      );
    },
    // Abandons the row only if nobody touched it since it was read for reconciliation.
    abandon: async (operationId, seenUpdatedAt) => {
      const at = bumped();
      return (
        (await db.run(
          `UPDATE journal SET state = 'abandoned', updated_at = ${at.text}
             WHERE operation_id = ? AND state = 'unknown' AND updated_at = ?`,
          [...at.params, operationId, seenUpdatedAt],
        )) > 0
      );
    },
    async finish(operationId, outcome) {
      const replaceable = REPLACEABLE_BY[outcome.state];
      const at = bumped();
      return (
        (await db.run(
          `UPDATE journal SET state = ?, status = ?, response = ?, upstream_request_id = ?,
             correlation_id = ?, updated_at = ${at.text}
           WHERE operation_id = ? AND state IN (${placeholders(replaceable.length)})`,
          [
            outcome.state,
            outcome.status,
            outcome.response,
            outcome.upstreamRequestId,
            outcome.correlationId,
            ...at.params,
            operationId,
            ...replaceable,
          ],
        )) > 0
      );
    },
    search: async (q) =>
      (
        await db.all(
          `${SELECT} WHERE idempotency_key = ? OR client_reference = ?
             OR operation_id = ? OR upstream_request_id = ? OR correlation_id = ?
           ORDER BY created_at LIMIT 50`,
          [q, q, q, q, q],
        )
      ).map((row) => {
        const found = read(row);
        if (!found) throw new Error('unreachable');
        return found;
      }),
    pruneBefore: (at) => db.run('DELETE FROM journal WHERE created_at < ?', [at]),
  };
}
