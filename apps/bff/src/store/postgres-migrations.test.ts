import { MigrationError } from '@settlement/sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePostgres, type TestPostgres } from '../test-support/postgres';
import { POSTGRES_MIGRATIONS, migratePostgres } from './postgres-migrations';

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await usePostgres();
}, 120_000);
afterAll(async () => {
  await postgres.release();
});

async function history(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      'SELECT name FROM migration_history ORDER BY name',
    );
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

describe('PostgreSQL migrations', () => {
  it('migrates once when several replicas start at the same moment', async () => {
    const url = await postgres.createDatabase();
    const applied = await Promise.all([
      migratePostgres(url),
      migratePostgres(url),
      migratePostgres(url),
    ]);
    expect(applied.sort()).toEqual([0, 0, POSTGRES_MIGRATIONS.length]);
    expect(await history(url)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.name));
    expect(await migratePostgres(url)).toBe(0);
  });

  it('refuses a database whose applied migration was edited afterwards', async () => {
    const url = await postgres.createDatabase();
    const first = { name: '001-things', sql: 'CREATE TABLE things (id BIGINT PRIMARY KEY);' };
    expect(await migratePostgres(url, [first])).toBe(1);
    await expect(
      migratePostgres(url, [{ ...first, sql: 'CREATE TABLE things (id TEXT PRIMARY KEY);' }]),
    ).rejects.toThrow(MigrationError);
    const second = { name: '002-more', sql: 'ALTER TABLE things ADD COLUMN label TEXT;' };
    expect(await migratePostgres(url, [first, second])).toBe(1);
  });

  it('leaves nothing half-applied when a migration fails', async () => {
    const url = await postgres.createDatabase();
    const broken = {
      name: '001-broken',
      sql: 'CREATE TABLE a (id BIGINT); CREATE TABLE a (x INT);',
    };
    await expect(migratePostgres(url, [broken])).rejects.toThrow();
    expect(await history(url)).toEqual([]);
  });
});
