import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pino from 'pino';
import { getGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type Bff } from '../app';
import { seedDemo, type DemoCredentials } from '../cli/seed-demo';
import { loadConfig, loadKeys } from '../config';
import { openDb } from '../store/db';
import type { Sql } from '../store/sql';
import {
  openEvents,
  startSandbox,
  type Browser,
  type EventsSocket,
  type SandboxProcess,
} from '../test-support/harness';
import { soleLeader, type Leadership } from './leader';
import type { BusHandlers, ClusterBus } from './bus';
import { tempDir } from '../test-support/temp-dirs';

/**
 * Ending a session closes its event sockets on every replica at once, through the cluster
 * bus: two BFF apps in this process share one SQLite file (as two processes may) and a bus
 * that hands each one's messages to the other. The hubs' periodic session check is set to an
 * hour, so only the bus (and the replica's own hub) can close a socket here.
 */

/** Buses of replicas that hear each other (never themselves), as LISTEN/NOTIFY does. */
function linkedBuses(count: number): ClusterBus[] {
  const handlers: (BusHandlers | null)[] = Array.from({ length: count }, () => null);
  const others = (self: number, fn: (on: BusHandlers) => void) => {
    for (const [index, on] of handlers.entries()) if (index !== self && on) fn(on);
    return Promise.resolve();
  };
  return handlers.map((_, self) => ({
    start(next) {
      handlers[self] = next;
      return Promise.resolve();
    },
    stop() {
      handlers[self] = null;
      return Promise.resolve();
    },
    publishEvents: (position) =>
      others(self, (on) => {
        on.onEvents(position);
      }),
    publishSessionEnded: (hash) =>
      others(self, (on) => {
        on.onSessionEnded(hash);
      }),
    publishUpstreamState: (state) =>
      others(self, (on) => {
        on.onUpstreamState(state);
      }),
    publishChange: (frame) =>
      others(self, (on) => {
        on.onChange(frame);
      }),
  }));
}

/** A replica that never wins the lead (the other one holds the upstream stream). */
function follower(): Leadership {
  return { start: () => undefined, stop: () => Promise.resolve(), isLeader: false };
}

type Replica = { bff: Bff; server: Server; db: Sql; url: string };

let sandbox: SandboxProcess;
let credentials: DemoCredentials;
let a: Replica;
let b: Replica;

async function startReplica(
  dataDir: string,
  consoleDist: string,
  cluster: { leadership: Leadership; bus: ClusterBus },
): Promise<Replica> {
  const config = loadConfig({
    DATA_DIR: dataDir,
    UPSTREAM_URL: sandbox.url,
    SANDBOX_ADMIN_TOKEN: sandbox.adminToken,
    CONSOLE_DIST: consoleDist,
  });
  const db = openDb(join(dataDir, 'bff', 'bff.db'));
  const bff = createApp({
    config,
    keys: loadKeys(config.keysFile),
    db,
    logger: pino({ level: 'silent' }),
    relay: { sessionCheckIntervalMs: 3_600_000 },
    cluster,
  });
  const server = createServer(bff.listener);
  bff.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  bff.start();
  await bff.ready();
  return { bff, server, db, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function stopReplica(replica: Replica): Promise<void> {
  replica.server.closeAllConnections();
  await replica.bff.stop();
  await new Promise((resolve) => replica.server.close(resolve));
  await replica.db.close();
}

async function call(
  replica: Replica,
  method: string,
  path: string,
  browser: Browser | null,
  body?: unknown,
): Promise<{ status: number; json: unknown; cookie: string | null }> {
  const headers: Record<string, string> = { origin: replica.url };
  if (browser?.cookie) headers.cookie = browser.cookie;
  if (browser?.csrf) headers['x-csrf-token'] = browser.csrf;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await getGlobalDispatcher().request({
    origin: replica.url,
    path,
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.body.text();
  const setCookie = response.headers['set-cookie'];
  const cookie = typeof setCookie === 'string' ? (setCookie.split(';')[0] ?? null) : null;
  return { status: response.statusCode, json: text ? (JSON.parse(text) as unknown) : null, cookie };
}

async function login(replica: Replica, username: string): Promise<Browser> {
  const password = credentials.operators.find((o) => o.username === username)?.password;
  const response = await call(replica, 'POST', '/bff/auth/login', null, { username, password });
  expect(response.status).toBe(200);
  return { cookie: response.cookie, csrf: (response.json as { csrfToken: string }).csrfToken };
}

const events = (replica: Replica, browser: Browser): Promise<EventsSocket> =>
  openEvents({ url: replica.url, origin: replica.url }, browser);

/** The opaque handle of the browser's own session. */
async function ownHandle(replica: Replica, browser: Browser): Promise<string> {
  const list = await call(replica, 'GET', '/bff/auth/sessions', browser);
  const items = (list.json as { items: { id: string; isCurrent: boolean }[] }).items;
  const own = items.find((item) => item.isCurrent);
  if (!own) throw new Error('no current session');
  return own.id;
}

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 50 });
  const dataDir = tempDir('bff-session-end-');
  const seeded = await seedDemo({
    sandboxUrl: sandbox.url,
    adminToken: sandbox.adminToken,
    dataDir,
  });
  if (!seeded.credentials) throw new Error('demo credentials missing');
  credentials = seeded.credentials;
  const consoleDist = join(dataDir, 'console-dist');
  mkdirSync(consoleDist, { recursive: true });
  writeFileSync(join(consoleDist, 'index.html'), '<!doctype html><div id="root"></div>');
  const [busA, busB] = linkedBuses(2);
  if (!busA || !busB) throw new Error('two buses expected');
  a = await startReplica(dataDir, consoleDist, { leadership: soleLeader(), bus: busA });
  b = await startReplica(dataDir, consoleDist, { leadership: follower(), bus: busB });
}, 60_000);

afterAll(async () => {
  await stopReplica(b);
  await stopReplica(a);
  await sandbox.stop();
});

describe('ending a session closes its sockets on every replica at once', () => {
  it('DELETE /bff/auth/sessions/{id} on one replica closes that session on both, and no other', async () => {
    const ended = await login(a, 'support');
    const kept = await login(b, 'support');
    const onA = await events(a, ended);
    const onB = await events(b, ended);
    const other = await events(b, kept);
    const handle = await ownHandle(a, ended);
    expect((await call(b, 'DELETE', `/bff/auth/sessions/${handle}`, kept)).status).toBe(204);
    expect(await onA.closed).toEqual({ code: 4001, reason: 'session ended' });
    expect(await onB.closed).toEqual({ code: 4001, reason: 'session ended' });
    expect(other.ws.readyState).toBe(other.ws.OPEN);
    other.ws.close();
  });

  it('an admin disabling an operator on one replica closes that operator\u2019s sockets on the other', async () => {
    const admin = await login(a, 'admin');
    const support = await login(b, 'support');
    const socket = await events(b, support);
    const disabled = await call(a, 'PATCH', '/bff/operators/support', admin, { disabled: true });
    expect(disabled.status).toBe(200);
    expect(await socket.closed).toEqual({ code: 4001, reason: 'session ended' });
    const enabled = await call(a, 'PATCH', '/bff/operators/support', admin, { disabled: false });
    expect(enabled.status).toBe(200);
  });

  it('an admin resetting a password on one replica closes that operator\u2019s sockets on the other', async () => {
    const admin = await login(b, 'admin');
    const treasury = await login(a, 'treasury');
    const socket = await events(a, treasury);
    const reset = await call(b, 'POST', '/bff/operators/treasury/reset-password', admin, {});
    expect(reset.status).toBe(200);
    expect(await socket.closed).toEqual({ code: 4001, reason: 'session ended' });
  });
});
