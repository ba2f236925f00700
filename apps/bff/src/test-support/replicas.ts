import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getGlobalDispatcher } from 'undici';
import type { DemoCredentials } from '../cli/seed-demo';
import type { Browser, Response, SandboxProcess } from './harness';

/**
 * Test support (not a test): BFF replicas as real processes (`node --import tsx main.ts`) on one
 * PostgreSQL, so a test can SIGKILL one. Configured only through the environment a deployment
 * uses (PORT, DATABASE_URL, UPSTREAM_URL, UPSTREAM_WS_URL, KEYS_FILE).
 */

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MAIN = join(SRC, 'main.ts');
const SEED = join(SRC, 'cli', 'seed-demo.ts');
const READY = /bff listening on (http:\/\/\S+)/;

export type Cluster = {
  dataDir: string;
  databaseUrl: string;
  credentials: DemoCredentials;
  env: Record<string, string>;
};

/** Seeds the demo organization into the database (keys file and credentials in `dataDir`). */
export function seedCluster(input: {
  sandbox: SandboxProcess;
  databaseUrl: string;
  dataDir: string;
}): Cluster {
  const env = {
    DATA_DIR: input.dataDir,
    DATABASE_URL: input.databaseUrl,
    SANDBOX_URL: input.sandbox.url,
    SANDBOX_ADMIN_TOKEN: input.sandbox.adminToken,
  };
  const seeded = spawnSync(process.execPath, ['--import', 'tsx', SEED], {
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (seeded.status !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
  const consoleDist = join(input.dataDir, 'console-dist');
  mkdirSync(consoleDist, { recursive: true });
  writeFileSync(join(consoleDist, 'index.html'), '<!doctype html><div id="root"></div>');
  const credentials = JSON.parse(
    readFileSync(join(input.dataDir, 'demo-credentials.json'), 'utf8'),
  ) as DemoCredentials;
  return {
    dataDir: input.dataDir,
    databaseUrl: input.databaseUrl,
    credentials,
    env: {
      ...env,
      UPSTREAM_URL: input.sandbox.url,
      KEYS_FILE: join(input.dataDir, 'bff', 'keys.json'),
      CONSOLE_DIST: consoleDist,
    },
  };
}

export type ReplicaProcess = {
  name: string;
  url: string;
  /** What a browser on this replica sends as Origin: its own URL (no proxy in the tests). */
  origin: string;
  child: ChildProcess;
  /** Every stdout and stderr line so far (JSON log lines at info level). */
  lines: string[];
  exited: Promise<void>;
  isLeader(): boolean;
  call(
    method: string,
    path: string,
    options?: { browser?: Browser; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  login(username: string): Promise<Browser>;
  kill(signal: NodeJS.Signals): Promise<void>;
};

export async function startReplica(
  cluster: Cluster,
  name: string,
  env: Record<string, string> = {},
): Promise<ReplicaProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, ...cluster.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<void>((r) => {
    child.once('exit', () => {
      r();
    });
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${name} did not start: ${lines.join('\n')}`));
    }, 30_000);
    const take = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        lines.push(line);
        const ready = READY.exec(line);
        if (ready?.[1]) {
          clearTimeout(timer);
          resolveUrl(ready[1]);
        }
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}): ${lines.join('\n')}`));
    });
  });

  const call: ReplicaProcess['call'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { origin: url, ...options.headers };
    if (options.browser?.cookie) headers.cookie = options.browser.cookie;
    if (options.browser?.csrf) headers['x-csrf-token'] = options.browser.csrf;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await getGlobalDispatcher().request({
      origin: url,
      path,
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.body.text();
    const flat: Record<string, string> = {};
    for (const [key, value] of Object.entries(response.headers)) {
      if (value !== undefined) flat[key] = Array.isArray(value) ? value.join('\n') : value;
    }
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: response.statusCode, headers: flat, text, json };
  };

  const isLeader = () => {
    const changes = lines.filter((line) => /upstream lead/.test(line));
    return /took the upstream lead/.test(changes.at(-1) ?? '');
  };

  return {
    name,
    url,
    origin: url,
    child,
    lines,
    exited,
    isLeader,
    call,
    async login(username) {
      const operator = cluster.credentials.operators.find((o) => o.username === username);
      if (!operator) throw new Error(`no operator ${username}`);
      const response = await call('POST', '/bff/auth/login', {
        body: { username, password: operator.password },
      });
      if (response.status !== 200) throw new Error(`login failed: ${response.text}`);
      const cookie = (response.headers['set-cookie'] ?? '').split(';')[0] ?? null;
      return { cookie, csrf: (response.json as { csrfToken: string }).csrfToken };
    },
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
