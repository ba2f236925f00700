// What `npm start` and `npm run start:cluster` share: supervising child processes (one dies,
// all stop), waiting for health checks, the first-start console build, the sandbox and the demo
// seed. Plain JavaScript, like its callers, so it runs before anything is built.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../packages/http-server/src/node-flags.mjs';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const consoleDist = join(root, 'apps/console/dist');

/**
 * @param {object} options
 * @param {string} options.label how error lines start ("npm start")
 * @param {boolean} [options.quiet] children's stdout and progress lines are dropped
 * @param {number} [options.graceMs] how long children get after SIGTERM before SIGKILL
 * @param {() => Promise<void>} [options.afterChildren] runs once every child has exited
 */
export function createSupervisor({ label, quiet = false, graceMs = 5000, afterChildren }) {
  const children = new Set();
  let stopping = false;

  const log = (line) => {
    if (!quiet) console.log(line);
  };

  const fail = (message) => {
    console.error(`${label}: ${message}`);
    process.exit(1);
  };

  function stop(code) {
    if (stopping) return;
    stopping = true;
    for (const child of children) child.kill('SIGTERM');
    const deadline = setTimeout(() => {
      for (const child of children) child.kill('SIGKILL');
    }, graceMs);
    deadline.unref();
    const check = setInterval(() => {
      if (children.size > 0) return;
      clearInterval(check);
      const done = () => process.exit(code);
      if (afterChildren) afterChildren().then(done, done);
      else done();
    }, 50);
  }

  /** Adopts a child: if it exits while the stack runs, the whole stack stops. */
  function adopt(name, child) {
    children.add(child);
    child.on('exit', (code, signal) => {
      children.delete(child);
      if (!stopping) {
        console.error(`${label}: ${name} exited (${signal ?? code}); stopping everything.`);
        stop(1);
      }
    });
    return child;
  }

  /** A server of ours (a TypeScript entry point), run through tsx with the servers' V8 flags. */
  function run(name, args, extraEnv) {
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', ...args], {
      cwd: root,
      env: { ...process.env, ...extraEnv },
      stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
    });
    return adopt(name, child);
  }

  async function waitFor(url, what, timeoutMs = 60_000) {
    const started = Date.now();
    while (Date.now() - started < timeoutMs) {
      if (stopping) return;
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

  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));

  return { log, fail, stop, adopt, run, waitFor, isStopping: () => stopping, quiet };
}

export function buildConsoleIfMissing(supervisor) {
  if (existsSync(join(consoleDist, 'index.html'))) return;
  supervisor.log('Building the console (first start only)...');
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: root,
    stdio: supervisor.quiet ? 'ignore' : 'inherit',
  });
  if (result.status !== 0) supervisor.fail('the console build failed');
}

/**
 * Starts the sandbox and waits for it. Returns its URL and admin token: from the environment,
 * else the one the sandbox keeps in its data dir. The sandbox alone creates that file
 * (ensureAdminToken, before it listens), so it is read only once the sandbox answers, and there
 * is one writer of the token.
 */
export async function startSandbox(supervisor, { port, dir, blockMs, env }) {
  supervisor.run(
    'sandbox',
    ['apps/sandbox/src/main.ts', '--port', String(port), '--data', dir, '--block-ms', blockMs],
    env,
  );
  const url = `http://127.0.0.1:${port}`;
  await supervisor.waitFor(`${url}/sandbox/healthz`, 'the sandbox');
  if (process.env.SANDBOX_ADMIN_TOKEN) return { url, adminToken: process.env.SANDBOX_ADMIN_TOKEN };
  const file = join(dir, 'admin-token');
  if (!existsSync(file)) supervisor.fail(`the sandbox wrote no admin token to ${file}`);
  return { url, adminToken: readFileSync(file, 'utf8').trim() };
}

/** First-start demo seeding (a no-op on later starts); prints the new operators' passwords. */
export function seedDemo(supervisor, env) {
  const seed = spawnSync(process.execPath, ['--import', 'tsx', 'apps/bff/src/cli/seed-demo.ts'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (seed.status !== 0) supervisor.fail('demo seeding failed');
  if (seed.stdout.trim() && !supervisor.quiet) process.stdout.write(seed.stdout);
}
