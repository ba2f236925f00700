import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, migrationChecksum, MigrationError, type Migration } from './migrate';

const one: Migration = { name: '001-things', sql: 'CREATE TABLE things (id INTEGER PRIMARY KEY);' };
const two: Migration = { name: '002-more', sql: 'ALTER TABLE things ADD COLUMN label TEXT;' };

function history(db: Database.Database) {
  return db
    .prepare<[], { name: string; checksum: string }>(
      'SELECT name, checksum FROM migration_history ORDER BY name',
    )
    .all();
}

function tables(db: Database.Database) {
  return db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
    )
    .all()
    .map((row) => row.name);
}

describe('migrate', () => {
  it('applies pending migrations in order once and records each name with its checksum', () => {
    const db = new Database(':memory:');
    expect(migrate(db, [one])).toBe(1);
    expect(migrate(db, [one, two])).toBe(1);
    expect(migrate(db, [one, two])).toBe(0);
    db.prepare("INSERT INTO things (label) VALUES ('kept')").run();
    expect(history(db)).toEqual([
      { name: '001-things', checksum: migrationChecksum(one) },
      { name: '002-more', checksum: migrationChecksum(two) },
    ]);
    expect(migrationChecksum(one)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a database whose applied migration was edited since, naming it, and applies nothing', () => {
    const db = new Database(':memory:');
    migrate(db, [one]);
    const edited = { ...one, sql: one.sql + ' ' };
    expect(() => migrate(db, [edited, two])).toThrow(MigrationError);
    expect(() => migrate(db, [edited, two])).toThrow(/Migration 001-things was changed after/);
    expect(history(db).map((row) => row.name)).toEqual(['001-things']);
  });

  it('refuses a database that applied a migration this code does not have', () => {
    const db = new Database(':memory:');
    migrate(db, [one, two]);
    expect(() => migrate(db, [one])).toThrow(/has migration 002-more applied, which this code/);
  });

  it('refuses a new migration that sorts before one already applied (forward only)', () => {
    const db = new Database(':memory:');
    migrate(db, [one, two]);
    const late: Migration = { name: '001-late', sql: 'CREATE TABLE late (id INTEGER);' };
    expect(() => migrate(db, [late, one, two])).toThrow(
      /001-late is new but sorts before 002-more/,
    );
    expect(tables(db)).not.toContain('late');
  });

  it('refuses a list out of name order, duplicated, or with a name that is not NNN-kebab', () => {
    const db = new Database(':memory:');
    expect(() => migrate(db, [two, one])).toThrow(/001-things is listed after 002-more/);
    expect(() => migrate(db, [one, one])).toThrow(/listed after/);
    expect(() => migrate(db, [{ name: 'things', sql: '' }])).toThrow(/not NNN-kebab-case/);
  });

  it('rolls a failing migration back whole: neither its tables nor its history row remain', () => {
    const db = new Database(':memory:');
    const broken: Migration = {
      name: '002-broken',
      sql: 'CREATE TABLE half (id INTEGER); INSERT INTO missing VALUES (1);',
    };
    expect(() => migrate(db, [one, broken])).toThrow(/no such table: missing/);
    expect(tables(db)).not.toContain('half');
    expect(history(db).map((row) => row.name)).toEqual(['001-things']);
  });

  it('adopts the older tracking once, when the history table is first created', () => {
    const db = new Database(':memory:');
    db.exec(one.sql);
    const calls: string[] = [];
    const adoptLegacy = () => {
      calls.push('adopt');
      return ['001-things'];
    };
    expect(migrate(db, [one, two], { adoptLegacy })).toBe(1);
    expect(migrate(db, [one, two], { adoptLegacy })).toBe(0);
    expect(calls).toEqual(['adopt']);
    expect(history(db)).toEqual([
      { name: '001-things', checksum: migrationChecksum(one) },
      { name: '002-more', checksum: migrationChecksum(two) },
    ]);
  });

  it('refuses older tracking that names an unknown migration and leaves no history table', () => {
    const db = new Database(':memory:');
    expect(() => migrate(db, [one], { adoptLegacy: () => ['009-gone'] })).toThrow(
      /older tracking records migration 009-gone/,
    );
    expect(tables(db)).toEqual([]);
  });
});
