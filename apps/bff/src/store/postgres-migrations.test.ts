import { MigrationError } from '@settlement/sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePostgres, type TestPostgres } from '../test-support/postgres';
import { createEventKeyIndexer } from './event-keys';
import { createEventStore } from './events';
import { POSTGRES_MIGRATIONS, migratePostgres } from './postgres-migrations';
import { postgresSql } from './postgres-sql';
import { businessEvent } from '../test-support/stored-event';

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

  it('adds the event key table to a store that has events, leaving them to the indexer', async () => {
    const url = await postgres.createDatabase();
    const before = POSTGRES_MIGRATIONS.findIndex((m) => m.name === '004-event-keys');
    expect(await migratePostgres(url, POSTGRES_MIGRATIONS.slice(0, before))).toBe(before);
    const sql = postgresSql(url, { max: 2, idleTimeoutMs: 0 });
    try {
      const events = createEventStore(sql);
      await events.add(businessEvent('kept', { requestId: 'req-kept' }));

      expect(await migratePostgres(url)).toBe(POSTGRES_MIGRATIONS.length - before);

      expect(await sql.all('SELECT key FROM event_keys')).toEqual([]);
      expect(await sql.all('SELECT id, seq FROM event_keys_indexed')).toEqual([{ id: 1, seq: 0 }]);
      expect((await events.search('req-kept')).map((e) => e.id)).toEqual(['kept']);
      expect(await createEventKeyIndexer(sql).indexPending(10)).toBe(1);
      expect((await events.search('req-kept')).map((e) => e.id)).toEqual(['kept']);
    } finally {
      await sql.close();
    }
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
