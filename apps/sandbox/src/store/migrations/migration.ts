import type Database from 'better-sqlite3';

/** One versioned schema step; `up` runs inside a transaction. */
export type Migration = { version: number; name: string; up: (db: Database.Database) => void };
