import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExpressServer } from '@settlement/http-server';
import { Writable } from 'node:stream';
import { spawnSandbox } from '@settlement/sandbox/spawn';
import { getGlobalDispatcher, request } from 'undici';
import WebSocket from 'ws';
import { createApp, type Bff } from '../app';
import type { PolicyDocument } from '@settlement/protocol';
import { seedDemo, type DemoCredentials } from '../cli/seed-demo';
import { ALLOW_ALL_POLICY } from '../governance/demo-policy';
import { createPolicyStore } from '../governance/policy-store';
import { loadConfig, loadKeys } from '../config';
import { createLogger } from '../logger';
import { openSqliteFile, type Db } from '../store/db';
import type { Sql } from '../store/sql';
import { openStorage } from '../store/open';
import { sqliteSql } from '../store/sqlite-sql';
import { tempDir } from './temp-dirs';

/**
 * Test support (not a test): a real sandbox child process and an in-process BFF on port 0
 * with a temp data dir. Every response body and log line is kept so a test can scan them.
 */

export type SandboxProcess = {
  url: string;
  /** The sandbox's data dir (tests may seed its database directly, as the bench does). */
  dataDir: string;
  adminToken: string;
  stop(): Promise<void>;
  control(
    method: 'POST' | 'PUT' | 'GET',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }>;
};

export async function startSandbox(options: { blockMs?: number } = {}): Promise<SandboxProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bff-test-sandbox-'));
  const sandbox = await spawnSandbox({ dataDir, blockMs: options.blockMs ?? 20 });
  const { url, adminToken } = sandbox;
  return {
    url,
    dataDir,
    adminToken,
    async stop() {
      await sandbox.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    async control(method, path, body) {
      const response = await request(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.body.text();
      return { status: response.statusCode, json: text ? (JSON.parse(text) as unknown) : null };
    },
  };
}

export type Response = {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
};

export type Browser = {
  cookie: string | null;
  csrf: string | null;
};

export type BffInstance = {
  url: string;
  origin: string;
  bff: Bff;
  /** The raw SQLite connection (tests read and plant rows with it). */
  db: Db;
  /** The stores' door to the same database. */
  sql: Sql;
  dataDir: string;
  credentials: DemoCredentials;
  logLines: string[];
  /** Every response body seen by `call` in this process (shared across instances). */
  transcript: string[];
  password(username: string): string;
  call(
    method: string,
    path: string,
    options?: {
      browser?: Browser;
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
      origin?: string | null;
      csrf?: string | null;
    },
  ): Promise<Response>;
  login(username: string): Promise<Browser>;
  upstreamCalls(): Promise<number>;
  close(): Promise<void>;
};

export const transcript: string[] = [];

export async function startBff(input: {
  sandbox: SandboxProcess;
  dataDir?: string;
  env?: Record<string, string>;
  upstreamUrl?: string;
  relay?: { maxBufferedBytes?: number; pingIntervalMs?: number };
  /**
   * The withdrawal policy of a fresh data dir: allow-all by default (suites not about
   * governance), 'demo' keeps the seeded default policy. A reused data dir keeps its own.
   */
  policy?: PolicyDocument | 'demo';
  now?: () => number;
  /** PostgreSQL for the stores (a replica: several instances may share one). */
  databaseUrl?: string;
  /** The first retry of an approved request the upstream did not take (2 s by default). */
  resumeFirstRetryMs?: number;
}): Promise<BffInstance> {
  const dataDir = input.dataDir ?? tempDir('bff-test-');
  const seeded = await seedDemo({
    sandboxUrl: input.sandbox.url,
    adminToken: input.sandbox.adminToken,
    dataDir,
    databaseUrl: input.databaseUrl ?? null,
  });
  if (!seeded.credentials) throw new Error('demo credentials missing');
  const credentials = seeded.credentials;
  const consoleDist = join(dataDir, 'console-dist');
  mkdirSync(join(consoleDist, 'assets'), { recursive: true });
  writeFileSync(join(consoleDist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(consoleDist, 'assets', 'app-3f2a1b.js'), 'console.log(1);');
  const config = loadConfig({
    DATA_DIR: dataDir,
    UPSTREAM_URL: input.upstreamUrl ?? input.sandbox.url,
    SANDBOX_ADMIN_TOKEN: input.sandbox.adminToken,
    CONSOLE_DIST: consoleDist,
    LOG_LEVEL: 'debug',
    UPSTREAM_TIMEOUT_MS: '3000',
    ...(input.databaseUrl ? { DATABASE_URL: input.databaseUrl } : {}),
    ...input.env,
  });
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logLines.push(line);
      callback();
    },
  });
  const logger = createLogger(config.logLevel, sink);
  const raw = input.databaseUrl ? null : openSqliteFile(join(dataDir, 'bff', 'bff.db'));
  const sql = raw ? sqliteSql(raw) : await openStorage(config);
  if (seeded.isNew && input.policy !== 'demo') {
    await createPolicyStore(sql).save(input.policy ?? ALLOW_ALL_POLICY, 'test-harness');
  }
  const bff = createApp({
    config,
    keys: loadKeys(config.keysFile),
    db: sql,
    logger,
    upstreamRetry: { baseMs: 5, capMs: 20 },
    ...(input.now ? { now: input.now } : {}),
    ...(input.resumeFirstRetryMs ? { resumeFirstRetryMs: input.resumeFirstRetryMs } : {}),
    relay: { backoff: { baseMs: 20, capMs: 200 }, ...input.relay },
  });
  const server: Server = createExpressServer(bff.app, bff.listener);
  bff.attach(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  bff.start();
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  const call: BffInstance['call'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const origin = options.origin === undefined ? url : options.origin;
    if (origin !== null) headers.origin = origin;
    if (options.browser?.cookie) headers.cookie = options.browser.cookie;
    const csrf = options.csrf === undefined ? options.browser?.csrf : options.csrf;
    if (csrf) headers['x-csrf-token'] = csrf;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    // The path goes on the wire verbatim (a URL parser would re-encode ' and ").
    const response = await getGlobalDispatcher().request({
      origin: url,
      path,
      method: method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.body.text();
    transcript.push(text);
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) flat[name] = Array.isArray(value) ? value.join('\n') : value;
    }
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: response.statusCode, headers: flat, text, json };
  };

  const password = (username: string) => {
    const found = credentials.operators.find((o) => o.username === username);
    if (!found) throw new Error(`no operator ${username}`);
    return found.password;
  };

  return {
    url,
    origin: url,
    bff,
    get db(): Db {
      if (!raw) throw new Error('no raw SQLite connection: this instance is on PostgreSQL');
      return raw;
    },
    sql,
    dataDir,
    credentials,
    logLines,
    transcript,
    password,
    call,
    async login(username) {
      const response = await call('POST', '/bff/auth/login', {
        body: { username, password: password(username) },
      });
      if (response.status !== 200) throw new Error(`login failed: ${response.text}`);
      const setCookie = response.headers['set-cookie'] ?? '';
      const cookie = setCookie.split(';')[0] ?? null;
      const csrf = (response.json as { csrfToken: string }).csrfToken;
      return { cookie, csrf };
    },
    async upstreamCalls() {
      await bff.services.logs.flush();
      const row = (await sql.get('SELECT COUNT(*) AS n FROM request_log')) as { n: number };
      return row.n;
    },
    async close() {
      const closed = new Promise<void>((r) => {
        server.close(() => {
          r();
        });
      });
      server.closeAllConnections();
      await bff.stop();
      await closed;
      await sql.close();
    },
  };
}

/** Secrets a suite must never reveal: key seeds and operator passwords. */
export function secretsOf(instance: BffInstance): string[] {
  const keys = JSON.parse(readFileSync(join(instance.dataDir, 'bff', 'keys.json'), 'utf8')) as {
    keys: { seed: string }[];
  };
  return [
    ...keys.keys.map((k) => k.seed),
    ...instance.credentials.operators.map((o) => o.password),
  ];
}

/** Base64 of a 64-byte Ed25519 signature. */
export const SIGNATURE_PATTERN = /[A-Za-z0-9+/]{86}==/;

export function waitFor<T>(
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 15_000,
  intervalMs = 50,
): Promise<T> {
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const tick = () => {
      probe().then(
        (value) => {
          if (value) resolvePromise(value);
          else if (Date.now() - started > timeoutMs) reject(new Error('timed out waiting'));
          else setTimeout(tick, intervalMs);
        },
        (error: unknown) => {
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    };
    tick();
  });
}

export type EventsSocket = {
  ws: WebSocket;
  frames: { kind: string; [key: string]: unknown }[];
  eventIds(): string[];
  closed: Promise<{ code: number; reason: string }>;
};

/**
 * A browser-like socket on /bff/events with the session cookie and our Origin; `instance` is an
 * in-process BFF or a replica process (its own URL is its origin).
 */
export async function openEvents(
  instance: Pick<BffInstance, 'url' | 'origin'>,
  browser: Browser,
  options: { after?: string; within?: string; origin?: string } = {},
): Promise<EventsSocket> {
  const url = new URL('/bff/events', instance.url.replace('http:', 'ws:'));
  if (options.after) url.searchParams.set('after', options.after);
  if (options.within !== undefined) url.searchParams.set('within', options.within);
  const headers: Record<string, string> = { origin: options.origin ?? instance.origin };
  if (browser.cookie) headers.cookie = browser.cookie;
  const ws = new WebSocket(url, { headers });
  const frames: EventsSocket['frames'] = [];
  ws.on('message', (data: Buffer) => {
    const text = data.toString('utf8');
    transcript.push(text);
    frames.push(JSON.parse(text) as { kind: string });
  });
  const closed = new Promise<{ code: number; reason: string }>((r) => {
    ws.on('close', (code, reason) => {
      r({ code, reason: reason.toString('utf8') });
    });
  });
  await new Promise<void>((resolvePromise, reject) => {
    ws.once('open', () => {
      resolvePromise();
    });
    ws.once('error', reject);
  });
  return {
    ws,
    frames,
    closed,
    eventIds: () =>
      frames.filter((f) => f.kind === 'event').map((f) => (f.event as { id: string }).id),
  };
}

/** Co-Signer online, MPC initialized and ACTIVE, one account and wallet on tron:nile, funded. */
export async function fundedWallet(
  instance: BffInstance,
  admin: Browser,
  treasury: Browser,
  amountAtomic = '500000000',
): Promise<{ accountId: string; walletId: string; address: string }> {
  await instance.call('PUT', '/bff/sandbox/co-signer', { browser: admin, body: { online: true } });
  await instance.call('POST', '/bff/api/v1/mpc/initialize', {
    browser: admin,
    headers: { 'x-operation-id': 'setup-mpc' },
  });
  await waitFor(async () => {
    const status = await instance.call('GET', '/bff/api/v1/mpc/status', { browser: admin });
    const body = status.json as { keyStatus: string; chains: { chain: string; ready: boolean }[] };
    return (
      body.keyStatus === 'ACTIVE' && body.chains.some((c) => c.chain === 'tron:nile' && c.ready)
    );
  });
  const account = await instance.call('POST', '/bff/api/v1/ledger/accounts', {
    browser: treasury,
    body: { name: 'Funded' },
  });
  const accountId = (account.json as { id: string }).id;
  const wallet = await instance.call('POST', '/bff/api/v1/wallets', {
    browser: treasury,
    body: { chain: 'tron:nile', accountId },
    headers: { 'x-operation-id': `setup-wallet-${accountId}` },
  });
  const { id: walletId, address } = wallet.json as { id: string; address: string };
  await instance.call('POST', '/bff/sandbox/deposits', {
    browser: admin,
    body: { walletId, asset: 'TRX', amountAtomic },
  });
  await waitFor(async () => {
    const balances = await instance.call('GET', `/bff/api/v1/wallets/${walletId}/balances`, {
      browser: treasury,
    });
    const items = (balances.json as { items: { asset: string; availableBalance: string }[] }).items;
    return items.some(
      (b) => b.asset === 'TRX' && BigInt(b.availableBalance) >= BigInt(amountAtomic),
    );
  }, 30_000);
  return { accountId, walletId, address };
}
