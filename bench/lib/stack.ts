import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { seedDemo, type DemoCredentials } from '@settlement/bff/seed-demo';
import { spawnSandbox } from '@settlement/sandbox/spawn';
import {
  freePort,
  profileArgs,
  spawnTs,
  trace,
  trackChild,
  waitForHttp,
  type Child,
} from './procs';

/**
 * The real stack as separate processes, as `npm start` runs it: the sandbox (its own process,
 * with the simulated chain and Co-Signer) and the BFF (its own process), seeded with the demo
 * organization, keys and operators through the same seedDemo the start script uses.
 */

export type JsonResponse = { status: number; json: unknown; headers: Record<string, string> };

export type SandboxProc = {
  url: string;
  adminToken: string;
  dataDir: string;
  child: Child;
  control(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<JsonResponse>;
};

function flat(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join('\n') : v;
  }
  return out;
}

async function jsonCall(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<JsonResponse> {
  const response = await request(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.body.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: response.statusCode, json, headers: flat(response.headers) };
}

export async function startSandbox(
  workDir: string,
  options: { blockMs: number; name?: string },
): Promise<SandboxProc> {
  const name = options.name ?? 'sandbox';
  trace(`${name}: spawning`);
  const dataDir = join(workDir, name);
  mkdirSync(dataDir, { recursive: true });
  const logFile = join(workDir, `${name}.log`);
  const sandbox = await spawnSandbox({
    dataDir,
    blockMs: options.blockMs,
    logLevel: 'info',
    output: createWriteStream(logFile, { flags: 'a' }),
    nodeArgs: profileArgs(name),
  });
  trace(`${name}: answering`);
  const { url, adminToken } = sandbox;
  const child = trackChild(name, sandbox.child, logFile);
  return {
    url,
    adminToken,
    dataDir,
    child,
    control: (method, path, body) =>
      jsonCall(`${url}${path}`, method, { authorization: `Bearer ${adminToken}` }, body),
  };
}

export type Session = { cookie: string; csrf: string };

/** What seeding leaves for a BFF to start on, and a replica of it to share. */
export type SeededOrg = {
  /** Keys file and (on SQLite) the stores. */
  dataDir: string;
  credentials: DemoCredentials;
};

export type BffProc = SeededOrg & {
  url: string;
  child: Child;
  login(username: 'admin' | 'treasury' | 'support'): Promise<Session>;
  call(method: string, path: string, session: Session, body?: unknown): Promise<JsonResponse>;
};

/**
 * Seeds a demo organization on `sandbox` into `DIR/<name>` and starts a BFF process over it.
 * `upstreamWsUrl` points the event relay elsewhere (the fake upstream of the relay group).
 */
export async function startBff(
  workDir: string,
  sandbox: SandboxProc,
  options: {
    name?: string;
    consoleDist?: string;
    upstreamWsUrl?: string;
    /** Runs after seeding, before the BFF starts (e.g. to tell a fake upstream the org, or
     * to start a replica beside it). */
    onSeeded?: (org: SeededOrg) => void;
    /** Every store on this PostgreSQL instead of SQLite in the data dir. */
    databaseUrl?: string;
    /** Another replica of the BFF seeded as `replicaOf`: same keys, same database, no
     * seeding of its own. */
    replicaOf?: SeededOrg;
  } = {},
): Promise<BffProc> {
  const name = options.name ?? 'bff';
  let dataDir = join(workDir, name);
  let credentials: DemoCredentials;
  if (options.replicaOf) {
    ({ dataDir, credentials } = options.replicaOf);
  } else {
    trace(`${name}: seeding`);
    const seeded = await seedDemo({
      sandboxUrl: sandbox.url,
      adminToken: sandbox.adminToken,
      dataDir,
      databaseUrl: options.databaseUrl ?? null,
    });
    if (!seeded.credentials) throw new Error('demo seeding gave no credentials');
    credentials = seeded.credentials;
    options.onSeeded?.({ dataDir, credentials });
  }
  trace(`${name}: spawning`);
  const port = await freePort();
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    UPSTREAM_URL: sandbox.url,
    SANDBOX_URL: sandbox.url,
    SANDBOX_ADMIN_TOKEN: sandbox.adminToken,
    LOG_LEVEL: 'info',
  };
  if (options.consoleDist) env.CONSOLE_DIST = options.consoleDist;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  if (options.upstreamWsUrl) env.UPSTREAM_WS_URL = options.upstreamWsUrl;
  const child = spawnTs({
    name,
    script: 'apps/bff/src/main.ts',
    env,
    nodeArgs: profileArgs(name),
    logFile: join(workDir, `${name}.log`),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/bff/healthz`, name);

  const call: BffProc['call'] = (method, path, session, body) =>
    jsonCall(
      `${url}${path}`,
      method,
      { origin: url, cookie: session.cookie, 'x-csrf-token': session.csrf },
      body,
    );
  return {
    url,
    child,
    dataDir,
    credentials,
    call,
    async login(username) {
      const operator = credentials.operators.find((o) => o.username === username);
      if (!operator) throw new Error(`no demo operator ${username}`);
      const response = await jsonCall(
        `${url}/bff/auth/login`,
        'POST',
        { origin: url },
        { username, password: operator.password },
      );
      if (response.status !== 200) throw new Error(`login ${username}: ${response.status}`);
      const cookie = (response.headers['set-cookie'] ?? '').split(';')[0] ?? '';
      const { csrfToken } = response.json as { csrfToken: string };
      return { cookie, csrf: csrfToken };
    },
  };
}

/**
 * Co-Signer online and the MPC key ACTIVE for the BFF's demo org, through the BFF as an
 * operator would (DESIGN's onboarding sequence).
 */
export async function makeReady(bff: BffProc): Promise<void> {
  trace('MPC key: initialize');
  const admin = await bff.login('admin');
  await bff.call('PUT', '/bff/sandbox/co-signer', admin, { online: true });
  const init = await fetchWithOperation(bff, admin, '/bff/api/v1/mpc/initialize', {}, 'bench-mpc');
  if (init.status !== 202 && init.status !== 200) {
    throw new Error(`mpc initialize: ${init.status} ${JSON.stringify(init.json)}`);
  }
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const status = await bff.call('GET', '/bff/api/v1/mpc/status', admin);
    const body = status.json as { keyStatus: string | null; chains?: { ready: boolean }[] };
    if (body.keyStatus === 'ACTIVE' && body.chains?.some((c) => c.ready)) {
      trace('MPC key: active');
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('MPC key did not become ACTIVE within 30 s');
}

/** A mutating BFF call that carries X-Operation-Id (idempotent operations). */
export function fetchWithOperation(
  bff: BffProc,
  session: Session,
  path: string,
  body: unknown,
  operationId: string,
): Promise<JsonResponse> {
  return jsonCall(
    `${bff.url}${path}`,
    'POST',
    {
      origin: bff.url,
      cookie: session.cookie,
      'x-csrf-token': session.csrf,
      'x-operation-id': operationId,
    },
    body,
  );
}
