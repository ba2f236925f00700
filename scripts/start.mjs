#!/usr/bin/env node
// Starts the whole stack on the sandbox: the sandbox (with its simulated chain and Co-Signer),
// first-start demo seeding, and the BFF serving the built console. `--dev` serves the console
// from Vite with hot reload instead. Plain JavaScript so it runs before anything is built.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  buildConsoleIfMissing,
  consoleDist,
  createSupervisor,
  root,
  seedDemo,
  startSandbox,
} from './lib/stack.mjs';

const isDev = process.argv.includes('--dev');
const env = process.env;

const port = Number(env.PORT ?? 8080);
const dataDir = resolve(root, env.DATA_DIR ?? '.data');
const stack = createSupervisor({ label: 'npm start', quiet: env.START_QUIET === '1' });

async function main() {
  if (!isDev) buildConsoleIfMissing(stack);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Request logs are for operators of a deployment; a person running the demo sees warnings only.
  const logLevel = { LOG_LEVEL: env.LOG_LEVEL ?? 'warn' };

  const sandbox = await startSandbox(stack, {
    port: Number(env.SANDBOX_PORT ?? 4010),
    dir: join(dataDir, 'sandbox'),
    blockMs: env.SANDBOX_BLOCK_MS ?? '1000',
    env: logLevel,
  });
  const shared = { ...logLevel, SANDBOX_ADMIN_TOKEN: sandbox.adminToken };
  seedDemo(stack, { ...shared, SANDBOX_URL: sandbox.url, DATA_DIR: dataDir });

  stack.run('bff', ['apps/bff/src/main.ts'], {
    ...shared,
    PORT: String(port),
    DATA_DIR: dataDir,
    UPSTREAM_URL: sandbox.url,
    SANDBOX_URL: sandbox.url,
    CONSOLE_DIST: consoleDist,
  });
  await stack.waitFor(`http://127.0.0.1:${port}/bff/healthz`, 'the BFF');

  if (isDev) {
    const vite = spawn('npx', ['vite', '--config', 'vite.config.ts', '--host', '127.0.0.1'], {
      cwd: root,
      env: { ...env, BFF_URL: `http://127.0.0.1:${port}` },
      stdio: 'inherit',
    });
    stack.adopt('vite', vite);
    stack.log('Console with hot reload: http://127.0.0.1:5173');
  } else {
    stack.log(`\nSettlement Console is running: http://127.0.0.1:${port}`);
  }
  stack.log(`Demo operator passwords: ${join(dataDir, 'demo-credentials.json')}`);
  stack.log('Stop with Ctrl+C.');
}

main().catch((error) => {
  console.error(error);
  stack.stop(1);
});
