import type { Migration } from '@settlement/sqlite';

/** The durable outbox: one row per business event, per-org increasing sequence. */
export const migration002: Migration = {
  name: '002-events',
  sql: `
      CREATE TABLE events (
        position INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        org_id TEXT NOT NULL,
        sequence INTEGER NOT NULL,
        type TEXT NOT NULL,
        occurred_at TEXT NOT NULL,
        correlation_id TEXT,
        data TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (org_id, sequence)
      );
    `,
};
