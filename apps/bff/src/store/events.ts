import { z } from 'zod';
import type { NormalizedEvent } from '@settlement/protocol';
import type { Db } from './db';

/** One stored business event as the relay and support search see it. */
export type StoredEvent = {
  seq: number;
  id: string;
  type: string;
  occurredAt: string;
  correlationId: string | null;
  sequence: number | null;
  orgId: string;
  transactionId: string | null;
  walletId: string | null;
  accountId: string | null;
  txHash: string | null;
  data: Record<string, unknown>;
  raw: unknown;
};

const RowSchema = z.object({
  seq: z.number().int(),
  id: z.string(),
  type: z.string(),
  occurred_at: z.string(),
  correlation_id: z.string().nullable(),
  upstream_sequence: z.number().int().nullable(),
  org_id: z.string(),
  transaction_id: z.string().nullable(),
  wallet_id: z.string().nullable(),
  account_id: z.string().nullable(),
  tx_hash: z.string().nullable(),
  data: z.string(),
  raw: z.string(),
});

function toStored(row: unknown): StoredEvent {
  const r = RowSchema.parse(row);
  return {
    seq: r.seq,
    id: r.id,
    type: r.type,
    occurredAt: r.occurred_at,
    correlationId: r.correlation_id,
    sequence: r.upstream_sequence,
    orgId: r.org_id,
    transactionId: r.transaction_id,
    walletId: r.wallet_id,
    accountId: r.account_id,
    txHash: r.tx_hash,
    data: z.record(z.string(), z.unknown()).parse(JSON.parse(r.data)),
    raw: JSON.parse(r.raw) as unknown,
  };
}

function field(data: Record<string, unknown>, key: string): string | null {
  const value = data[key];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

export type EventStore = ReturnType<typeof createEventStore>;

/** The relay's durable store: each event once; the resume position committed with it. */
export function createEventStore(db: Db, now: () => number = Date.now) {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO events (id, type, occurred_at, correlation_id, upstream_sequence, org_id,
       transaction_id, wallet_id, account_id, tx_hash, client_reference, data, raw, received_at)
     VALUES (@id, @type, @occurredAt, @correlationId, @sequence, @orgId, @transactionId, @walletId,
       @accountId, @txHash, @clientReference, @data, @raw, @receivedAt)`,
  );
  const fillSequence = db.prepare(
    'UPDATE events SET upstream_sequence = ? WHERE id = ? AND upstream_sequence IS NULL',
  );
  const seqOf = db.prepare<[string], { seq: number }>('SELECT seq FROM events WHERE id = ?');
  const latest = db.prepare<[], { id: string; upstream_sequence: number | null }>(
    'SELECT id, upstream_sequence FROM events ORDER BY seq DESC LIMIT 1',
  );
  const after = db.prepare('SELECT * FROM events WHERE seq > ? ORDER BY seq LIMIT ?');
  const insertRejected = db.prepare(
    'INSERT INTO rejected_events (reason, detail, raw, received_at) VALUES (?, ?, ?, ?)',
  );
  const search = db.prepare(
    `SELECT * FROM events WHERE id = @q OR correlation_id = @q OR transaction_id = @q OR wallet_id = @q
       OR account_id = @q OR tx_hash = @q OR client_reference = @q
       OR json_extract(data, '$.sourceTransactionId') = @q
       OR json_extract(data, '$.destinationTransactionId') = @q
       OR json_extract(data, '$.requestId') = @q
       OR json_extract(data, '$.idempotencyKey') = @q
       OR json_extract(data, '$.toAddress') = @q OR json_extract(data, '$.fromAddress') = @q
       OR json_extract(data, '$.address') = @q
     ORDER BY occurred_at, seq LIMIT 500`,
  );
  const byTransactions = db.prepare(
    `SELECT * FROM events WHERE transaction_id IN (SELECT value FROM json_each(?))
     ORDER BY occurred_at, seq LIMIT 500`,
  );

  /** Stores a business event once. Returns the stored row when new, null for a duplicate. */
  function addOne(event: NormalizedEvent): StoredEvent | null {
    const { data } = event;
    const row = {
      id: event.id,
      type: event.type,
      occurredAt: event.occurredAt,
      correlationId: event.correlationId,
      sequence: event.sequence,
      orgId: event.orgId,
      transactionId: field(data, 'transactionId'),
      walletId: field(data, 'walletId'),
      accountId: field(data, 'accountId'),
      txHash: field(data, 'txHash'),
    };
    const result = insert.run({
      ...row,
      clientReference: field(data, 'clientReference'),
      data: JSON.stringify(data),
      raw: JSON.stringify(event.raw),
      receivedAt: now(),
    });
    if (result.changes === 0) {
      // A redelivery in the topic envelope may carry the sequence the first frame lacked.
      if (event.sequence !== null) fillSequence.run(event.sequence, event.id);
      return null;
    }
    // The row as written (no read-back): the values are the ones just bound.
    return { seq: Number(result.lastInsertRowid), ...row, data, raw: event.raw };
  }

  return {
    add: db.transaction(addOne),
    /** Stores a batch in one transaction; returns the new rows in order (no duplicates). */
    addMany: db.transaction((batch: readonly NormalizedEvent[]): StoredEvent[] => {
      const stored: StoredEvent[] = [];
      for (const event of batch) {
        const row = addOne(event);
        if (row) stored.push(row);
      }
      return stored;
    }),
    /**
     * Where the upstream stream resumes, derived from what is stored (so it is committed with
     * the event itself): the newest event's sequence (topic envelope), else its id (MVP).
     */
    resumePosition: (): string | null => {
      // The newest stored event decides: its sequence when the upstream gave one (topic
      // envelope, possibly filled in by a later redelivery), else its id (MVP envelope). A
      // sequence kept from an earlier envelope setting is never used once newer events lack it.
      const newest = latest.get();
      if (!newest) return null;
      return newest.upstream_sequence === null ? newest.id : String(newest.upstream_sequence);
    },
    /** Local position of an event id (for browser replay), or null when unknown. */
    seqOf: (id: string): number | null => seqOf.get(id)?.seq ?? null,
    after: (seq: number, limit: number): StoredEvent[] => after.all(seq, limit).map(toStored),
    rejected(reason: string, detail: string, raw: unknown): void {
      const text = typeof raw === 'string' ? raw : JSON.stringify(raw ?? null);
      insertRejected.run(reason, detail.slice(0, 1000), text.slice(0, 64 * 1024), now());
    },
    rejectedCount: (): number =>
      (db.prepare('SELECT COUNT(*) AS n FROM rejected_events').get() as { n: number }).n,
    search: (q: string): StoredEvent[] => search.all({ q }).map(toStored),
    forTransactions: (ids: string[]): StoredEvent[] =>
      ids.length === 0 ? [] : byTransactions.all(JSON.stringify(ids)).map(toStored),
    /** Retention: events and rejected frames older than `before`. */
    prune: db.transaction((before: number) => {
      return (
        db.prepare('DELETE FROM events WHERE received_at < ?').run(before).changes +
        db.prepare('DELETE FROM rejected_events WHERE received_at < ?').run(before).changes
      );
    }),
  };
}
