import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

/**
 * One forward-only schema step. `name` is `NNN-what-it-does`; names sort in the order the steps
 * run. Once a database has applied a step its SQL never changes (the runner checks a checksum):
 * a correction is a new, later migration.
 */
export type Migration = { readonly name: string; readonly sql: string };

export type MigrateOptions = {
  /**
   * For databases created before this runner: reads the older tracking (and removes it), and
   * returns the names of the migrations it says are applied. Runs once, in the same transaction
   * that creates the history table, so a crash leaves either the old tracking or the new one.
   */
  readonly adoptLegacy?: (db: Database.Database) => readonly string[];
};

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

const HISTORY = 'migration_history';
const NAME = /^\d{3}-[a-z0-9]+(-[a-z0-9]+)*$/;

/** The checksum recorded for a migration: SHA-256 of its exact SQL text (whitespace counts). */
export function migrationChecksum(migration: Migration): string {
  return createHash('sha256').update(migration.sql).digest('hex');
}

/**
 * Brings `db` up to date with `migrations`: verifies every already-applied migration is still
 * the one that ran (same name, same checksum), then applies the rest in order, each in its own
 * immediate transaction together with its history row. Returns how many it applied.
 */
export function migrate(
  db: Database.Database,
  migrations: readonly Migration[],
  options: MigrateOptions = {},
): number {
  const byName = checkOrder(migrations);
  createHistory(db, byName, options);

  const applied = new Map(
    db
      .prepare<[], { name: string; checksum: string }>(`SELECT name, checksum FROM ${HISTORY}`)
      .all()
      .map((row) => [row.name, row.checksum]),
  );
  const pending = new Set(pendingMigrations(applied, migrations).map((m) => m.name));
  const record = db.prepare<[string, string, string]>(
    `INSERT INTO ${HISTORY} (name, checksum, applied_at) VALUES (?, ?, ?)`,
  );
  const isApplied = db.prepare<[string], { name: string }>(
    `SELECT name FROM ${HISTORY} WHERE name = ?`,
  );
  let count = 0;
  for (const migration of migrations) {
    if (!pending.has(migration.name)) continue;
    // Immediate, and re-checked inside: a second process migrating the same file waits for the
    // first and then skips what it applied.
    const didApply = db
      .transaction(() => {
        if (isApplied.get(migration.name) !== undefined) return false;
        db.exec(migration.sql);
        record.run(migration.name, migrationChecksum(migration), new Date().toISOString());
        return true;
      })
      .immediate();
    if (didApply) count += 1;
  }
  return count;
}

/**
 * The one rule set of every engine's runner: given the history a database recorded (name ->
 * checksum), verifies each applied migration is still the one that ran and returns the rest, in
 * order. Throws MigrationError for a migration this code lacks, a changed checksum, or a new
 * migration that sorts before one already applied (forward only).
 */
export function pendingMigrations(
  applied: ReadonlyMap<string, string>,
  migrations: readonly Migration[],
): Migration[] {
  const byName = checkOrder(migrations);
  let latest = '';
  for (const [name, recorded] of applied) {
    const migration = byName.get(name);
    if (migration === undefined) {
      throw new MigrationError(
        `The database has migration ${name} applied, which this code does not have (was it ` +
          'migrated by a newer version?). Migrations only go forward.',
      );
    }
    const current = migrationChecksum(migration);
    if (current !== recorded) {
      throw new MigrationError(
        `Migration ${name} was changed after this database applied it (recorded checksum ` +
          `${recorded}, now ${current}). Restore its SQL and put the change in a new migration.`,
      );
    }
    if (name > latest) latest = name;
  }
  const pending = migrations.filter((migration) => !applied.has(migration.name));
  for (const migration of pending) {
    if (migration.name < latest) {
      throw new MigrationError(
        `Migration ${migration.name} is new but sorts before ${latest}, which this database ` +
          'already applied. Migrations only go forward: give it a name after the last one.',
      );
    }
  }
  return pending;
}

function checkOrder(migrations: readonly Migration[]): Map<string, Migration> {
  const byName = new Map<string, Migration>();
  let previous = '';
  for (const migration of migrations) {
    if (!NAME.test(migration.name)) {
      throw new MigrationError(
        `Migration name ${JSON.stringify(migration.name)} is not NNN-kebab-case (e.g. 004-wallet-labels).`,
      );
    }
    if (migration.name <= previous) {
      throw new MigrationError(
        `Migration ${migration.name} is listed after ${previous}; list migrations in name order, each once.`,
      );
    }
    previous = migration.name;
    byName.set(migration.name, migration);
  }
  return byName;
}

function createHistory(
  db: Database.Database,
  byName: ReadonlyMap<string, Migration>,
  options: MigrateOptions,
): void {
  const exists = db.prepare<[string], { name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?",
  );
  db.transaction(() => {
    if (exists.get(HISTORY) !== undefined) return;
    db.exec(
      `CREATE TABLE ${HISTORY} (name TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`,
    );
    const record = db.prepare<[string, string, string]>(
      `INSERT INTO ${HISTORY} (name, checksum, applied_at) VALUES (?, ?, ?)`,
    );
    const at = new Date().toISOString();
    for (const name of options.adoptLegacy?.(db) ?? []) {
      const migration = byName.get(name);
      if (migration === undefined) {
        throw new MigrationError(
          `The database's older tracking records migration ${name}, which this code does not have.`,
        );
      }
      // The older runners recorded no checksum; the SQL they ran is the SQL kept here.
      record.run(name, migrationChecksum(migration), at);
    }
  }).immediate();
}
