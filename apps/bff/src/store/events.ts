import { z } from 'zod';
import type { NormalizedEvent } from '@settlement/protocol';
import { pruneEventKeys, searchEvents } from './event-keys';
import { placeholders, type Sql } from './sql';

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

const SeqSchema = z.object({ seq: z.number().int() });
const LatestSchema = z.object({ id: z.string(), upstream_sequence: z.number().int().nullable() });
const CountSchema = z.object({ n: z.number().int() });

export type EventStore = {
  /** Stores a business event once (insert-if-absent by id): the stored row, or null for a duplicate. */
  add(event: NormalizedEvent): Promise<StoredEvent | null>;
  /** Stores a batch in one transaction; returns the new rows in order (no duplicates). */
  addMany(batch: readonly NormalizedEvent[]): Promise<StoredEvent[]>;
  /**
   * Where the upstream stream resumes, derived from what is stored (so it is committed with
   * the event itself): the newest event's sequence (topic envelope), else its id (MVP).
   */
  resumePosition(): Promise<string | null>;
  /** Local position of an event id (for browser replay), or null when unknown. */
  seqOf(id: string): Promise<number | null>;
  /** The stored event of this id (a NOTIFY carries only the id), or null. */
  byId(id: string): Promise<StoredEvent | null>;
  /** Whether any event was received at or after `at` (ms; the `received_at` index). */
  hasReceivedSince(at: number): Promise<boolean>;
  /**
   * Up to `limit` events after local position `seq`, in position order: positions only grow,
   * and commit in order (see EVENT_WRITE_LOCK), so a follower resumes from the last it saw.
   */
  after(seq: number, limit: number): Promise<StoredEvent[]>;
  /** The newest local position, 0 when empty (where a replica starts following). */
  lastPosition(): Promise<number>;
  rejected(reason: string, detail: string, raw: unknown): Promise<void>;
  rejectedCount(): Promise<number>;
  /** Up to 500 events that have `q` as one of their keys (see event-keys.ts), oldest first. */
  search(q: string): Promise<StoredEvent[]>;
  forTransactions(ids: string[]): Promise<StoredEvent[]>;
  /** Retention: events and rejected frames older than `before`. */
  prune(before: number): Promise<number>;
};

/**
 * PostgreSQL: event writers take this transaction-scoped advisory lock, so positions commit in
 * the order they are assigned and a reader following `after(position)` never skips a row that
 * an overlapping writer (an old leader still finishing) commits late.
 */
const EVENT_WRITE_LOCK = 0x65766e74;

/** The relay's durable store: each event once; the resume position committed with it. */
export function createEventStore(db: Sql, now: () => number = Date.now): EventStore {
  async function addOne(tx: Sql, event: NormalizedEvent): Promise<StoredEvent | null> {
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
    const inserted = await tx.get(
      `INSERT INTO events (id, type, occurred_at, correlation_id, upstream_sequence, org_id,
         transaction_id, wallet_id, account_id, tx_hash, client_reference, data, raw, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO NOTHING RETURNING seq`,
      [
        row.id,
        row.type,
        row.occurredAt,
        row.correlationId,
        row.sequence,
        row.orgId,
        row.transactionId,
        row.walletId,
        row.accountId,
        row.txHash,
        field(data, 'clientReference'),
        JSON.stringify(data),
        JSON.stringify(event.raw),
        now(),
      ],
    );
    if (inserted === undefined) {
      // A redelivery in the topic envelope may carry the sequence the first frame lacked.
      if (event.sequence !== null) {
        await tx.run(
          'UPDATE events SET upstream_sequence = ? WHERE id = ? AND upstream_sequence IS NULL',
          [event.sequence, event.id],
        );
      }
      return null;
    }
    // The row as written (no read-back): the values are the ones just bound.
    return { seq: SeqSchema.parse(inserted).seq, ...row, data, raw: event.raw };
  }

  const writing = <T>(fn: (tx: Sql) => Promise<T>): Promise<T> =>
    db.transaction(async (tx) => {
      if (tx.dialect === 'postgres') {
        await tx.all('SELECT pg_advisory_xact_lock(?)', [EVENT_WRITE_LOCK]);
      }
      return fn(tx);
    });

  return {
    add: (event) => writing((tx) => addOne(tx, event)),
    addMany: (batch) =>
      writing(async (tx) => {
        const stored: StoredEvent[] = [];
        for (const event of batch) {
          const row = await addOne(tx, event);
          if (row) stored.push(row);
        }
        return stored;
      }),
    async resumePosition() {
      // The newest stored event decides: its sequence when the upstream gave one (topic
      // envelope, possibly filled in by a later redelivery), else its id (MVP envelope). A
      // sequence kept from an earlier envelope setting is never used once newer events lack it.
      const row = await db.get(
        'SELECT id, upstream_sequence FROM events ORDER BY seq DESC LIMIT 1',
      );
      if (row === undefined) return null;
      const newest = LatestSchema.parse(row);
      return newest.upstream_sequence === null ? newest.id : String(newest.upstream_sequence);
    },
    async seqOf(id) {
      const row = await db.get('SELECT seq FROM events WHERE id = ?', [id]);
      return row === undefined ? null : SeqSchema.parse(row).seq;
    },
    hasReceivedSince: async (at) =>
      (await db.get('SELECT 1 AS found FROM events WHERE received_at >= ? LIMIT 1', [at])) !==
      undefined,
    async byId(id) {
      const row = await db.get('SELECT * FROM events WHERE id = ?', [id]);
      return row === undefined ? null : toStored(row);
    },
    after: async (seq, limit) =>
      (await db.all('SELECT * FROM events WHERE seq > ? ORDER BY seq LIMIT ?', [seq, limit])).map(
        toStored,
      ),
    async lastPosition() {
      const row = await db.get('SELECT seq FROM events ORDER BY seq DESC LIMIT 1');
      return row === undefined ? 0 : SeqSchema.parse(row).seq;
    },
    async rejected(reason, detail, raw) {
      const text = typeof raw === 'string' ? raw : JSON.stringify(raw ?? null);
      await db.run(
        'INSERT INTO rejected_events (reason, detail, raw, received_at) VALUES (?, ?, ?, ?)',
        [reason, detail.slice(0, 1000), text.slice(0, 64 * 1024), now()],
      );
    },
    rejectedCount: async () =>
      CountSchema.parse(await db.get('SELECT COUNT(*) AS n FROM rejected_events')).n,
    search: async (q) => (await searchEvents(db, q)).map(toStored),
    forTransactions: async (ids) =>
      ids.length === 0
        ? []
        : (
            await db.all(
              `SELECT * FROM events WHERE transaction_id IN (${placeholders(ids.length)})
               ORDER BY occurred_at, seq LIMIT 500`,
              ids,
            )
          ).map(toStored),
    prune: (before) =>
      db.transaction(async (tx) => {
        // Keys first: they are found through the events they belong to.
        await pruneEventKeys(tx, before);
        return (
          (await tx.run('DELETE FROM events WHERE received_at < ?', [before])) +
          (await tx.run('DELETE FROM rejected_events WHERE received_at < ?', [before]))
        );
      }),
  };
}
