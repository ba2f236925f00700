#!/usr/bin/env node
// Starts the whole stack on the sandbox: the sandbox (with its simulated chain and Co-Signer),
// first-start demo seeding, and the BFF serving the built console. `--dev` serves the console
// from Vite with hot reload instead. Plain JavaScript so it runs before anything is built.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const isDev = process.argv.includes('--dev');
const env = process.env;

const port = Number(env.PORT ?? 8080);
const sandboxPort = Number(env.SANDBOX_PORT ?? 4010);
const dataDir = resolve(root, env.DATA_DIR ?? '.data');
const blockMs = env.SANDBOX_BLOCK_MS ?? '1000';
const quiet = env.START_QUIET === '1';
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
const consoleDist = join(root, 'apps/console/dist');

function log(line) {
  if (!quiet) console.log(line);
}

function fail(message) {
  console.error(`npm start: ${message}`);
  process.exit(1);
}

/**
 * The sandbox admin token: from the environment, else the one the sandbox keeps in its data
 * dir. The sandbox alone creates that file (ensureAdminToken, before it listens), so this runs
 * only once the sandbox answers, and there is one writer of the token.
 */
function adminToken(sandboxDir) {
  if (env.SANDBOX_ADMIN_TOKEN) return env.SANDBOX_ADMIN_TOKEN;
  const file = join(sandboxDir, 'admin-token');
  if (!existsSync(file)) fail(`the sandbox wrote no admin token to ${file}`);
  return readFileSync(file, 'utf8').trim();
}

const children = new Set();
let stopping = false;

function run(name, args, extraEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
  });
  children.add(child);
  child.on('exit', (code, signal) => {
    children.delete(child);
    if (!stopping) {
      console.error(`npm start: ${name} exited (${signal ?? code}); stopping the stack.`);
      stop(1);
    }
  });
  return child;
}

function stop(code) {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  const deadline = setTimeout(() => {
    for (const child of children) child.kill('SIGKILL');
    process.exit(code);
  }, 5000);
  deadline.unref();
  const check = setInterval(() => {
    if (children.size === 0) {
      clearInterval(check);
      process.exit(code);
    }
  }, 50);
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

async function waitFor(url, what, timeoutMs = 60_000) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  fail(`${what} did not become ready at ${url} within ${timeoutMs / 1000} s`);
}

function buildConsoleIfMissing() {
  if (isDev || existsSync(join(consoleDist, 'index.html'))) return;
  log('Building the console (first start only)...');
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: root,
    stdio: quiet ? 'ignore' : 'inherit',
  });
  if (result.status !== 0) fail('the console build failed');
}

async function main() {
  buildConsoleIfMissing();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const sandboxDir = join(dataDir, 'sandbox');
  // Request logs are for operators of a deployment; a person running the demo sees warnings only.
  const logLevel = { LOG_LEVEL: env.LOG_LEVEL ?? 'warn' };

  run(
    'sandbox',
    [
      'apps/sandbox/src/main.ts',
      '--port',
      String(sandboxPort),
      '--data',
      sandboxDir,
      '--block-ms',
      blockMs,
    ],
    logLevel,
  );
  await waitFor(`${sandboxUrl}/sandbox/healthz`, 'the sandbox');
  const shared = { ...logLevel, SANDBOX_ADMIN_TOKEN: adminToken(sandboxDir) };

  const seed = spawnSync(process.execPath, ['--import', 'tsx', 'apps/bff/src/cli/seed-demo.ts'], {
    cwd: root,
    env: { ...env, ...shared, SANDBOX_URL: sandboxUrl, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (seed.status !== 0) fail('demo seeding failed');
  if (seed.stdout.trim() && !quiet) process.stdout.write(seed.stdout);

  run('bff', ['apps/bff/src/main.ts'], {
    ...shared,
    PORT: String(port),
    DATA_DIR: dataDir,
    UPSTREAM_URL: sandboxUrl,
    SANDBOX_URL: sandboxUrl,
    CONSOLE_DIST: consoleDist,
  });
  await waitFor(`http://127.0.0.1:${port}/bff/healthz`, 'the BFF');

  if (isDev) {
    const vite = spawn('npx', ['vite', '--config', 'vite.config.ts', '--host', '127.0.0.1'], {
      cwd: root,
      env: { ...env, BFF_URL: `http://127.0.0.1:${port}` },
      stdio: 'inherit',
    });
    children.add(vite);
    vite.on('exit', () => {
      children.delete(vite);
      if (!stopping) stop(1);
    });
    log('Console with hot reload: http://127.0.0.1:5173');
  } else {
    log(`\nSettlement Console is running: http://127.0.0.1:${port}`);
  }
  log(`Demo operator passwords: ${join(dataDir, 'demo-credentials.json')}`);
  log('Stop with Ctrl+C.');
}

main().catch((error) => {
  console.error(error);
  stop(1);
});
