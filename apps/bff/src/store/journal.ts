import { OperationStateSchema, type OperationState } from '@settlement/protocol';
import { z } from 'zod';
import type { Db } from './db';

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
  updatedAt: number;
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
});

function toEntry(row: unknown): JournalEntry | null {
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
  };
}

export type NewJournalEntry = Pick<
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

export type Outcome = {
  state: Exclude<JournalState, 'pending' | 'abandoned'>;
  status: number | null;
  response: Uint8Array | null;
  upstreamRequestId: string | null;
  correlationId: string | null;
};

export type JournalStore = ReturnType<typeof createJournalStore>;

export function createJournalStore(db: Db, now: () => number = Date.now) {
  const select = db.prepare('SELECT * FROM journal WHERE operation_id = ?');
  const insert = db.prepare(
    `INSERT OR IGNORE INTO journal (operation_id, operator, operation, idempotency_key, method, path,
       request_hash, body, body_hash, client_reference, state, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
  );
  // Only an open outcome may be sent again: an abandoned operation never is, even when a retry
  // and the abandon race (SQLite serializes the two updates; the second one changes nothing).
  const setPending = db.prepare(
    `UPDATE journal SET state = 'pending', updated_at = ?
       WHERE operation_id = ? AND state IN ('pending', 'unknown')`,
  );
  // Abandons the row only if nobody touched it since it was read for reconciliation.
  const setAbandoned = db.prepare(
    `UPDATE journal SET state = 'abandoned', updated_at = ?
       WHERE operation_id = ? AND state = 'unknown' AND updated_at = ?`,
  );
  const finish = db.prepare(
    `UPDATE journal SET state = ?, status = ?, response = ?, upstream_request_id = ?,
       correlation_id = ?, updated_at = ? WHERE operation_id = ?`,
  );
  const search = db.prepare(
    `SELECT * FROM journal WHERE idempotency_key = ? OR client_reference = ? OR operation_id = ?
       OR upstream_request_id = ? OR correlation_id = ? ORDER BY created_at LIMIT 50`,
  );
  const prune = db.prepare('DELETE FROM journal WHERE created_at < ?');

  return {
    get: (operationId: string) => toEntry(select.get(operationId)),
    /** Inserts a pending row; false when the operation id already exists. */
    begin(entry: NewJournalEntry): boolean {
      const at = now();
      const result = insert.run(
        entry.operationId,
        entry.operator,
        entry.operation,
        entry.idempotencyKey,
        entry.method,
        entry.path,
        entry.requestHash,
        Buffer.from(entry.body),
        entry.bodyHash,
        entry.clientReference,
        at,
        at,
      );
      return result.changes > 0;
    },
    /** Marks an open outcome as being sent again; false when it is no longer open. */
    markPending: (operationId: string): boolean => setPending.run(now(), operationId).changes > 0,
    /**
     * Marks an unknown outcome abandoned; false when its row changed since `seenUpdatedAt`
     * (a retry or a reconciliation got there first).
     */
    abandon: (operationId: string, seenUpdatedAt: number): boolean =>
      setAbandoned.run(now(), operationId, seenUpdatedAt).changes > 0,
    finish(operationId: string, outcome: Outcome): void {
      finish.run(
        outcome.state,
        outcome.status,
        outcome.response ? Buffer.from(outcome.response) : null,
        outcome.upstreamRequestId,
        outcome.correlationId,
        now(),
        operationId,
      );
    },
    search: (q: string) =>
      search.all(q, q, q, q, q).map((row) => {
        const entry = toEntry(row);
        if (!entry) throw new Error('unreachable');
        return entry;
      }),
    /** Completed entries older than the idempotency window are of no further use. */
    pruneBefore: (at: number) => prune.run(at).changes,
  };
}
