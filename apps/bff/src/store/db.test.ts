import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS, openSqliteFile as openDb, type Db } from './db';
import { createEventKeyIndexer } from './event-keys';
import { createEventStore } from './events';
import { sqliteSql } from './sqlite-sql';
import { businessEvent } from '../test-support/stored-event';

/**
 * The BFF's runner before @settlement/sqlite (commit 4c587f5), verbatim: the applied count in
 * `user_version`. These tests build databases exactly the way released code did.
 */
function migrateAsBefore(db: Db, migrations: readonly string[]): void {
  const current = Number(db.pragma('user_version', { simple: true }));
  for (let index = current; index < migrations.length; index += 1) {
    const sql = migrations[index];
    if (sql === undefined) break;
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${index + 1}`);
    })();
  }
}

const RELEASED_SQL = MIGRATIONS.map((migration) => migration.sql);

let dir: string;
let file: string;
let db: Db | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bff-db-'));
  file = join(dir, 'bff.db');
});
afterEach(() => {
  db?.close();
  db = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A database as the released BFF left it after its first `count` migrations. */
function releasedDatabase(count: number): Db {
  const old = new Database(file);
  migrateAsBefore(old, RELEASED_SQL.slice(0, count));
  return old;
}

function history(target: Db) {
  return target
    .prepare<[], { name: string }>('SELECT name FROM migration_history ORDER BY name')
    .all()
    .map((row) => row.name);
}

describe('bff migrate', () => {
  it('creates a fresh database with every migration recorded by name', () => {
    db = openDb(file);
    expect(history(db)).toEqual(MIGRATIONS.map((migration) => migration.name));
    expect(migrate(db)).toBe(0);
  });

  it('adopts a fully migrated database of the user_version runner without touching its data', () => {
    const old = releasedDatabase(MIGRATIONS.length);
    old
      .prepare(
        "INSERT INTO operators (username, role, password_hash, created_at, updated_at) VALUES ('kept', 'admin', 'h', 1, 1)",
      )
      .run();
    old
      .prepare(
        "INSERT INTO wallet_labels (wallet_id, label, updated_at, updated_by) VALUES ('w1', 'Hot', 1, 'kept')",
      )
      .run();
    old.close();

    db = openDb(file);

    expect(history(db)).toEqual(MIGRATIONS.map((migration) => migration.name));
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(db.prepare('SELECT username, role FROM operators').all()).toEqual([
      { username: 'kept', role: 'admin' },
    ]);
    expect(db.prepare('SELECT label FROM wallet_labels').all()).toEqual([{ label: 'Hot' }]);
  });

  it('adopts a partly migrated database and applies only the later migrations to its rows', () => {
    const old = releasedDatabase(5);
    old
      .prepare(
        "INSERT INTO operators (id, username, role, password_hash, created_at, updated_at) VALUES (1, 'kept', 'support', 'h', 1, 1)",
      )
      .run();
    old
      .prepare(
        "INSERT INTO sessions (id_hash, operator_id, csrf_token, created_at, last_seen_at) VALUES ('s', 1, 'c', 1, 1)",
      )
      .run();
    old.close();

    db = openDb(file);

    expect(history(db)).toEqual(MIGRATIONS.map((migration) => migration.name));
    expect(db.prepare('SELECT username, disabled FROM operators').all()).toEqual([
      { username: 'kept', disabled: 0 },
    ]);
    const session = db.prepare<[], { handle: string; stage: string }>(
      'SELECT handle, stage FROM sessions',
    );
    expect(session.get()).toEqual({
      handle: expect.stringMatching(/^[0-9a-f]{32}$/),
      stage: 'complete',
    });
  });

  it('adds the event key table to a store that has events, leaving them to the indexer', async () => {
    const old = new Database(file);
    migrate(
      old,
      MIGRATIONS.slice(
        0,
        MIGRATIONS.findIndex((m) => m.name === '012-event-keys'),
      ),
    );
    await createEventStore(sqliteSql(old)).add(businessEvent('kept', { requestId: 'req-kept' }));
    old.close();

    db = openDb(file);

    expect(history(db)).toEqual(MIGRATIONS.map((migration) => migration.name));
    expect(db.prepare('SELECT COUNT(*) AS n FROM event_keys').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT id, seq FROM event_keys_indexed').all()).toEqual([{ id: 1, seq: 0 }]);
    const sql = sqliteSql(db);
    const events = createEventStore(sql);
    expect((await events.search('req-kept')).map((e) => e.id)).toEqual(['kept']);
    expect(await createEventKeyIndexer(sql).indexPending(10)).toBe(1);
    expect((await events.search('req-kept')).map((e) => e.id)).toEqual(['kept']);
  });

  it('refuses a user_version beyond the known migrations and leaves the database as it was', () => {
    const old = releasedDatabase(MIGRATIONS.length);
    old.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    expect(() => migrate(old)).toThrow(`user_version ${MIGRATIONS.length + 1} is beyond`);
    expect(old.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length + 1);
    expect(
      old.prepare("SELECT name FROM sqlite_master WHERE name = 'migration_history'").get(),
    ).toBeUndefined();
    db = old;
  });
});
