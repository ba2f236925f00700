import { z } from 'zod';
import type { EventType } from '@settlement/protocol';
import { timeOrderedId } from '@settlement/protocol/ids';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/db';
import { prepared } from '../store/prepared';

/** One durable business event as stored in the outbox. */
export type StoredEvent = {
  position: number;
  id: string;
  orgId: string;
  sequence: number;
  type: string;
  occurredAt: string;
  correlationId: string | null;
  data: Record<string, unknown>;
};

/**
 * An outbox event as the stream relays it: its data left as the JSON text it was stored as,
 * which the stream's frames carry as is (stream.ts).
 */
export type RelayedEvent = Omit<StoredEvent, 'data'> & { dataJson: string };

export type NewEvent = {
  orgId: string;
  type: EventType;
  correlationId: string | null;
  /** The durable state-transition time (ISO 8601), not the delivery time. */
  occurredAt: string;
  data: Record<string, unknown>;
};

type EventRow = {
  position: number;
  id: string;
  org_id: string;
  sequence: number;
  type: string;
  occurred_at: string;
  correlation_id: string | null;
  data: string;
};

const DataSchema = z.record(z.string(), z.unknown());

function toRelayed(row: EventRow): RelayedEvent {
  return {
    position: row.position,
    id: row.id,
    orgId: row.org_id,
    sequence: row.sequence,
    type: row.type,
    occurredAt: row.occurred_at,
    correlationId: row.correlation_id,
    dataJson: row.data,
  };
}

function toEvent(row: EventRow): StoredEvent {
  const { dataJson, ...event } = toRelayed(row);
  return { ...event, data: DataSchema.parse(JSON.parse(dataJson)) };
}

/**
 * Appends a business event. Call it INSIDE the transaction of the state change it reports:
 * the event then commits (or rolls back) with it, so none is lost and none is invented.
 */
export function appendEvent(db: Db, event: NewEvent): StoredEvent {
  if (!db.inTransaction)
    throw new Error('appendEvent must run inside the state-change transaction');
  const { nextSequence, insert } = statementsOf(db);
  const sequence = nextSequence.get(event.orgId)?.next ?? 1;
  const id = timeOrderedId();
  const result = insert.run(
    id,
    event.orgId,
    sequence,
    event.type,
    event.occurredAt,
    event.correlationId,
    JSON.stringify(event.data),
    new Date().toISOString(),
  );
  return {
    position: Number(result.lastInsertRowid),
    id,
    orgId: event.orgId,
    sequence,
    type: event.type,
    occurredAt: event.occurredAt,
    correlationId: event.correlationId,
    data: event.data,
  };
}

type Statements = {
  nextSequence: Statement<[string], { next: number }>;
  insert: Statement<[string, string, number, string, string, string | null, string, string]>;
};

/** Statements of the hot path, prepared once per connection. */
const statements = new WeakMap<Db, Statements>();

function statementsOf(db: Db): Statements {
  let prepared = statements.get(db);
  if (!prepared) {
    prepared = {
      nextSequence: db.prepare<[string], { next: number }>(
        'SELECT COALESCE(MAX(sequence), 0) + 1 AS next FROM events WHERE org_id = ?',
      ),
      insert: db.prepare<[string, string, number, string, string, string | null, string, string]>(
        `INSERT INTO events (id, org_id, sequence, type, occurred_at, correlation_id, data, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
    };
    statements.set(db, prepared);
  }
  return prepared;
}

const highestPosition = prepared<[], { position: number | null }>(
  'SELECT MAX(position) AS position FROM events',
);
const allAfter = prepared<[number, number], EventRow>(
  'SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?',
);
const orgAfterSequence = prepared<[string, number, number, number], EventRow>(
  'SELECT * FROM events WHERE org_id = ? AND sequence > ? AND position <= ? ORDER BY sequence LIMIT ?',
);
const sequenceOfEvent = prepared<[string, string], { sequence: number }>(
  'SELECT sequence FROM events WHERE org_id = ? AND id = ?',
);
const allOfOrg = prepared<[string], EventRow>(
  'SELECT * FROM events WHERE org_id = ? ORDER BY sequence',
);

/** Highest committed outbox position (0 when empty). */
export function lastPosition(db: Db): number {
  return highestPosition(db).get()?.position ?? 0;
}

/** Every org's events committed after `position`, in commit order. */
export function eventsAfter(db: Db, position: number, limit: number): RelayedEvent[] {
  return allAfter(db).all(position, limit).map(toRelayed);
}

/** One org's events with sequence above `sequence` and position at most `maxPosition`. */
export function orgEventsAfterSequence(
  db: Db,
  orgId: string,
  sequence: number,
  maxPosition: number,
  limit: number,
): RelayedEvent[] {
  return orgAfterSequence(db).all(orgId, sequence, maxPosition, limit).map(toRelayed);
}

/** The org sequence of one of its retained events, or null when it has no such event. */
export function orgSequenceOfEvent(db: Db, orgId: string, eventId: string): number | null {
  return sequenceOfEvent(db).get(orgId, eventId)?.sequence ?? null;
}

/** Events of one org, for tests and support tooling (newest last). */
export function orgEvents(db: Db, orgId: string): StoredEvent[] {
  return allOfOrg(db).all(orgId).map(toEvent);
}
