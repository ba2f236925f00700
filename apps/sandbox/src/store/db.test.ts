import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Migration } from '@settlement/sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDb, type Db } from './db';
import { MIGRATIONS } from './migrations/index';

/**
 * The sandbox's runner before @settlement/sqlite (commit 4c587f5), kept verbatim but for taking
 * SQL instead of a callback, so these tests build databases exactly the way released code did.
 */
function migrateAsBefore(db: Db, migrations: { version: number; name: string; sql: string }[]) {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const record = db.prepare(
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
  );
  for (const m of migrations) {
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name, new Date().toISOString());
    })();
  }
}

/** The released numbering: 101 came after 003. */
function asReleased(migration: Migration, version: number) {
  return { version, name: migration.name.slice(4), sql: migration.sql };
}

const [core, events, accounts, moneyMovement] = MIGRATIONS as [
  Migration,
  Migration,
  Migration,
  Migration,
];

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-db-'));
  db = openDb(join(dir, 'sandbox.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function history() {
  return db
    .prepare<[], { name: string }>('SELECT name FROM migration_history ORDER BY name')
    .all()
    .map((row) => row.name);
}

function hasTable(name: string) {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !==
    undefined
  );
}

describe('sandbox migrate', () => {
  it('creates a fresh database with every migration recorded in name order', () => {
    expect(migrate(db)).toBe(MIGRATIONS.length);
    expect(history()).toEqual([
      '001-core',
      '002-events',
      '003-accounts-wallets-mpc',
      '004-money-movement',
      '005-transaction-list-indexes',
      '006-due-transactions',
    ]);
    expect(migrate(db)).toBe(0);
  });

  it('adopts a database the previous runner fully migrated (001-003, 101) without touching its data, then applies what came after', () => {
    migrateAsBefore(db, [
      asReleased(core, 1),
      asReleased(events, 2),
      asReleased(accounts, 3),
      asReleased(moneyMovement, 101),
    ]);
    db.prepare(
      "INSERT INTO orgs (id, name, created_at) VALUES ('org', 'Kept', '2030-01-01T00:00:00.000Z')",
    ).run();
    db.prepare("INSERT INTO chain_state (id, height, last_block_at) VALUES (1, 42, 'then')").run();

    expect(migrate(db)).toBe(2);

    expect(history()).toEqual([
      '001-core',
      '002-events',
      '003-accounts-wallets-mpc',
      '004-money-movement',
      '005-transaction-list-indexes',
      '006-due-transactions',
    ]);
    expect(hasTable('schema_migrations')).toBe(false);
    expect(db.prepare('SELECT name FROM orgs').all()).toEqual([{ name: 'Kept' }]);
    expect(db.prepare('SELECT height FROM chain_state').get()).toEqual({ height: 42 });
  });

  it('adopts a database from before money movement and applies 004 and what came after', () => {
    migrateAsBefore(db, [asReleased(core, 1), asReleased(events, 2), asReleased(accounts, 3)]);
    db.prepare(
      "INSERT INTO orgs (id, name, created_at) VALUES ('org', 'Kept', '2030-01-01T00:00:00.000Z')",
    ).run();

    expect(migrate(db)).toBe(3);

    expect(history()).toContain('004-money-movement');
    expect(hasTable('transactions')).toBe(true);
    expect(db.prepare('SELECT name FROM orgs').all()).toEqual([{ name: 'Kept' }]);
  });

  it('refuses a previous-runner database that records a version this code does not know', () => {
    migrateAsBefore(db, [asReleased(core, 1), { version: 7, name: 'future', sql: '' }]);
    expect(() => migrate(db)).toThrow(/records version 7/);
    expect(hasTable('schema_migrations')).toBe(true);
    expect(hasTable('migration_history')).toBe(false);
  });
});
