import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate as runMigrations, type Migration } from '@settlement/sqlite';
import { MIGRATIONS } from './migrations/index';

export type Db = Database.Database;

/**
 * Opens (creating when missing) the sandbox database: WAL, synchronous=NORMAL, foreign keys on,
 * temporary storage in memory.
 */
export function openDb(file: string): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Savepoints (a request inside its loop turn's group commit, a row inside its block) keep the
  // pages they change in a statement journal; past 64 KiB SQLite spilled it to a temp FILE, and a
  // withdrawal's create alone changes more. In memory it is a copy, freed at release.
  db.pragma('temp_store = MEMORY');
  return db;
}

/**
 * Brings the database up to date with the sandbox's migrations (forward only, checksummed; see
 * @settlement/sqlite). Returns how many it applied.
 */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): number {
  return runMigrations(db, migrations, { adoptLegacy: adoptSchemaMigrations });
}

/** What the sandbox's first runner recorded in `schema_migrations` (by number), by today's names. */
const LEGACY_VERSIONS: ReadonlyMap<number, string> = new Map([
  [1, '001-core'],
  [2, '002-events'],
  [3, '003-accounts-wallets-mpc'],
  [101, '004-money-movement'],
]);

/** Reads and drops the first runner's `schema_migrations`, so one table records what ran. */
function adoptSchemaMigrations(db: Db): string[] {
  const legacy = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
    )
    .get();
  if (legacy === undefined) return [];
  const names = db
    .prepare<[], { version: number }>('SELECT version FROM schema_migrations ORDER BY version')
    .all()
    .map(({ version }) => {
      const name = LEGACY_VERSIONS.get(version);
      if (name === undefined) {
        throw new Error(
          `schema_migrations records version ${version}, which this code does not know`,
        );
      }
      return name;
    });
  db.exec('DROP TABLE schema_migrations');
  return names;
}
