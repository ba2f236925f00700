import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { usePostgres, type TestPostgres } from './postgres';

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await usePostgres();
});
afterAll(async () => {
  await postgres.release();
});

it('gives each caller an empty database of its own on a real PostgreSQL', async () => {
  const [first, second] = [await postgres.createDatabase(), await postgres.createDatabase()];
  expect(first).not.toBe(second);
  const client = new pg.Client({ connectionString: first });
  await client.connect();
  try {
    await client.query('CREATE TABLE probe (id int)');
    const { rows } = await client.query<{ server_version_num: string }>('SHOW server_version_num');
    expect(Number(rows[0]?.server_version_num)).toBeGreaterThanOrEqual(150000);
  } finally {
    await client.end();
  }
  const other = new pg.Client({ connectionString: second });
  await other.connect();
  try {
    const { rows } = await other.query("SELECT to_regclass('probe') AS t");
    expect(rows[0]?.t).toBeNull();
  } finally {
    await other.end();
  }
});
