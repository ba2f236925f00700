import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { pino } from 'pino';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_SCOPES, ErrorEnvelopeSchema } from '@settlement/protocol';
import {
  createNobleSigner,
  decodeKey32,
  signRestRequest,
  type Signer,
} from '@settlement/protocol/signing';
import { createSandbox, type Sandbox } from '../app';

/**
 * Bad input against every sandbox surface (interface, control plane, Co-Signer health) over real
 * HTTP: random path segments (malformed percent-encoding among them), query strings, headers and
 * bodies (huge, deeply nested, wrong content types). Never a 5xx, always the error envelope for a
 * refusal, and a refusal writes nothing. Background loops are not started, so the database only
 * changes through the requests sent here. Replay a failure with FC_SEED=<seed>.
 */

const ADMIN_TOKEN = 'bad-input-admin-token-0123456789';
const SEED = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31));
const MALFORMED = ['%zz', '%FF', '%', '%C0%AF', '%ED%A0%80', '%E0%A4', '%5', '%%'] as const;

let sandbox: Sandbox;
let server: Server;
let baseUrl: string;
let dataDir: string;
let signer: Signer;
let orgId: string;
let accountId: string;
const logLines: string[] = [];
const agent = new Agent({ keepAliveTimeout: 1_000, connections: 8 });

type Answer = { status: number; headers: Record<string, string>; text: string };

async function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body: Uint8Array | null = null,
): Promise<Answer> {
  const response = await agent.request({
    origin: baseUrl,
    path,
    method,
    headers,
    ...(body === null ? {} : { body }),
  });
  const text = await response.body.text();
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (typeof value === 'string') flat[name] = value;
  }
  return { status: response.statusCode, headers: flat, text };
}

function admin(method: string, path: string, body?: unknown): Promise<Answer> {
  return send(
    method,
    path,
    { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body === undefined ? null : Buffer.from(JSON.stringify(body)),
  );
}

function signed(method: string, target: string, body: Uint8Array | null = null): Promise<Answer> {
  const headers: Record<string, string> = signRestRequest(signer, { method, target, body });
  if (body !== null) headers['content-type'] = 'application/json';
  return send(method, target, headers, body);
}

/** Every table's rows but the signature nonces (each signed request records its nonce). */
function stateDigest(): string {
  const { db } = sandbox.ctx;
  const tables = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'nonces' ORDER BY name",
    )
    .all();
  const hash = createHash('sha256');
  for (const { name } of tables) {
    hash.update(name);
    hash.update(JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).raw().all()));
  }
  return hash.digest('hex');
}

/** The Co-Signer health probe answers 503 "offline" by contract (unknown org too): not an error. */
function isHealthProbeAnswer(method: string, target: string, answer: Answer): boolean {
  return (
    method === 'GET' &&
    /^\/co-signer\/[^/?]+\/healthz(\?|$)/.test(target) &&
    answer.status === 503 &&
    (JSON.parse(answer.text) as { status?: unknown }).status === 'offline'
  );
}

function expectEnvelope(answer: Answer, context: string): void {
  expect(answer.status, context).toBeLessThan(500);
  if (answer.status < 400) return;
  const parsed = ErrorEnvelopeSchema.safeParse(JSON.parse(answer.text));
  expect(parsed.success, `${context}: ${answer.text}`).toBe(true);
  if (parsed.success) expect(parsed.data.retryable, context).toBe(false);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sandbox-bad-input-'));
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logLines.push(line);
      callback();
    },
  });
  sandbox = createSandbox({
    dataDir,
    adminToken: ADMIN_TOKEN,
    logger: pino({ level: 'debug' }, sink),
  });
  server = createServer(sandbox.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const org = await admin('POST', '/sandbox/orgs', { name: 'Bad input' });
  orgId = (JSON.parse(org.text) as { orgId: string }).orgId;
  const key = await admin('POST', `/sandbox/orgs/${orgId}/api-keys`, { scopes: API_SCOPES });
  const { keyId, privateKey } = JSON.parse(key.text) as { keyId: string; privateKey: string };
  signer = createNobleSigner(keyId, decodeKey32(privateKey));
  const account = await signed(
    'POST',
    '/api/v1/ledger/accounts',
    Buffer.from(JSON.stringify({ name: 'Existing' })),
  );
  accountId = (JSON.parse(account.text) as { id: string }).id;
});

afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
    server.closeAllConnections();
  });
  await agent.close();
  await sandbox.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('malformed percent-encoding in a path segment', () => {
  it('is 400 VALIDATION_ERROR, not retryable, on the interface, the control plane and the Co-Signer health', async () => {
    for (const segment of MALFORMED) {
      const before = stateDigest();
      const answers = [
        await signed('GET', `/api/v1/wallets/${segment}`),
        await signed('GET', `/api/v1/transactions/${segment}`),
        await signed('GET', `/api/v1/ledger/accounts/${segment}/balances`),
        await admin('POST', `/sandbox/orgs/${segment}/api-keys`, { scopes: ['wallets:read'] }),
        await admin('PUT', `/sandbox/orgs/${segment}/faults`, { latencyMs: 1 }),
        await send('GET', `/co-signer/${segment}/healthz`),
      ];
      for (const answer of answers) {
        expect(answer.status, segment).toBe(400);
        expect(JSON.parse(answer.text), segment).toMatchObject({
          code: 'VALIDATION_ERROR',
          retryable: false,
          requestId: answer.headers['x-request-id'],
        });
      }
      expect(stateDigest()).toBe(before);
    }
    expect(logLines.filter((line) => line.includes('"level":50'))).toEqual([]);
  });
});

describe('deeply nested JSON', () => {
  it('is 400 VALIDATION_ERROR and creates nothing', async () => {
    const before = stateDigest();
    for (const [open, close] of [
      ['[', ']'],
      ['{"a":', '}'],
    ] as const) {
      const nested = `${open.repeat(20_000)}1${close.repeat(20_000)}`;
      const answer = await signed(
        'POST',
        '/api/v1/ledger/accounts',
        Buffer.from(`{"name":"deep","metadata":{"x":${nested}}}`),
      );
      expect(answer.status, open).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ code: 'VALIDATION_ERROR', retryable: false });
    }
    expect(stateDigest()).toBe(before);
  });
});

describe('a request the client aborts', () => {
  it('is logged as aborted at info, not as an unhandled error', async () => {
    const received = new Promise((resolve) => server.once('request', resolve));
    const socket = connect(Number(new URL(baseUrl).port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /sandbox/orgs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":',
    );
    await received;
    socket.destroy();
    await vi.waitFor(() => {
      const line = logLines.find((l) => l.includes('request aborted by the client'));
      expect(line).toBeDefined();
      expect(JSON.parse(line ?? '{}')).toMatchObject({ level: 30, method: 'POST' });
    });
    expect(logLines.filter((line) => line.includes('"level":50'))).toEqual([]);
  });
});

// ---- the property ----

/** pchar of RFC 3986 without `%` (ASCII only, so splitting by code unit is exact). */
const PATH_CHARS = Array.from(
  `abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@`,
);
const token = fc.string({ unit: fc.constantFrom(...PATH_CHARS), minLength: 0, maxLength: 12 });
const encodedText = fc.string({ maxLength: 12 }).map((text) => encodeURIComponent(text));

/** A path segment: valid ids, random text (encoded or raw), malformed or odd encodings. */
const segment = () =>
  fc.oneof(
    fc.constantFrom(...MALFORMED),
    fc.constantFrom('.', '..', '%2e%2e', '%2F', '%00', '%20', ''),
    fc.constant(orgId),
    fc.constant(accountId),
    token,
    encodedText,
    fc.tuple(token, fc.constantFrom(...MALFORMED), token).map((parts) => parts.join('')),
  );

const TEMPLATES = [
  '/api/v1/ledger/accounts',
  '/api/v1/ledger/accounts/:id',
  '/api/v1/ledger/accounts/:id/wallets',
  '/api/v1/ledger/accounts/:id/balances',
  '/api/v1/ledger/accounts/:id/transactions',
  '/api/v1/wallets',
  '/api/v1/wallets/:id',
  '/api/v1/wallets/:id/balances',
  '/api/v1/transactions',
  '/api/v1/transactions/:id',
  '/api/v1/assets',
  '/api/v1/mpc/status',
  '/api/v1/mpc/initialize',
  '/api/v1/co-signer/intents/:id/claim',
  '/api/v1/:id',
  '/sandbox/orgs',
  '/sandbox/orgs/:id/api-keys',
  '/sandbox/orgs/:id/co-signer',
  '/sandbox/orgs/:id/faults',
  '/sandbox/orgs/:id/deposits',
  '/sandbox/healthz',
  '/sandbox/:id',
  '/co-signer/:id/healthz',
  '/:id',
] as const;

const path = () =>
  fc
    .tuple(fc.constantFrom(...TEMPLATES), fc.array(segment(), { minLength: 2, maxLength: 2 }))
    .map(([template, [first, second]]) =>
      template.replace(':id', first ?? '').replace(/\/:id$/, `/${second ?? ''}`),
    );

const query = fc
  .array(fc.tuple(segment(), fc.option(segment(), { nil: undefined })), { maxLength: 4 })
  .map((pairs) =>
    pairs.length === 0
      ? ''
      : `?${pairs.map(([key, value]) => (value === undefined ? key : `${key}=${value}`)).join('&')}`,
  );

const deepJson = fc
  .tuple(fc.integer({ min: 1_000, max: 200_000 }), fc.constantFrom('[', '{"a":'))
  .map(([depth, open]) => {
    const close = open === '[' ? ']' : '}';
    return `{"name":"deep","metadata":{"x":${open.repeat(depth)}1${close.repeat(depth)}}}`;
  });

const body = fc.oneof(
  fc.constant<string | Uint8Array | null>(null),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc.constant('{}'),
  fc.constant('{"name":'),
  deepJson,
  fc.integer({ min: 1, max: 3 }).map((mib) => `"${'x'.repeat(mib * 700 * 1024)}"`),
  fc.uint8Array({ maxLength: 64 }),
  fc.constant(Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])),
);

const visible = fc.string({
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 40,
});
/** Mostly none, so that most bodies get past the body parser to the handlers. */
const headers = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Record<string, string>>({}) },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        'content-type': fc.constantFrom(
          'application/json',
          'application/json; charset=utf-16',
          'application/json; charset=latin1',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'gibberish',
        ),
        'content-encoding': fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown'),
        'x-idempotency-key': visible,
        'x-request-id': visible,
        'x-correlation-id': visible,
        accept: fc.constantFrom('application/json', 'text/html', '*/*'),
        'x-random': visible,
      },
      { requiredKeys: [] },
    ),
  },
);

/** Signed (reaches the interface's handlers), admin (the control plane), or neither. */
const credentials = fc.constantFrom('signed' as const, 'admin' as const, 'none' as const);

/** Routes that read a JSON body, with real ids, so random bodies reach the handlers. */
const WRITES = () =>
  [
    ['POST', '/api/v1/ledger/accounts', 'signed'],
    ['POST', '/api/v1/wallets', 'signed'],
    ['POST', '/api/v1/transactions', 'signed'],
    ['POST', '/api/v1/mpc/initialize', 'signed'],
    ['POST', '/sandbox/orgs', 'admin'],
    ['POST', `/sandbox/orgs/${orgId}/api-keys`, 'admin'],
    ['PUT', `/sandbox/orgs/${orgId}/co-signer`, 'admin'],
    ['PUT', `/sandbox/orgs/${orgId}/faults`, 'admin'],
    ['POST', `/sandbox/orgs/${orgId}/deposits`, 'admin'],
  ] as const;

async function checkOne(
  method: string,
  requestTarget: string,
  extra: Record<string, string>,
  bytes: Uint8Array | null,
  who: 'signed' | 'admin' | 'none',
  state: { digest: string },
): Promise<void> {
  const sent: Record<string, string> = { ...extra };
  if (who === 'admin') sent.authorization = `Bearer ${ADMIN_TOKEN}`;
  if (who === 'signed') {
    Object.assign(sent, signRestRequest(signer, { method, target: requestTarget, body: bytes }));
  }
  const answer = await send(method, requestTarget, sent, bytes);
  const context = `${method} ${requestTarget} (${who}) -> ${answer.status} ${answer.text.slice(0, 200)}`;
  if (!isHealthProbeAnswer(method, requestTarget, answer)) expectEnvelope(answer, context);
  const after = stateDigest();
  if (answer.status >= 400 || method === 'GET') expect(after, context).toBe(state.digest);
  state.digest = after;
}

async function assertWithSeed(property: fc.IAsyncProperty<unknown[]>, numRuns: number) {
  console.info(`sandbox bad-input property: FC_SEED=${SEED}`);
  const heapBefore = process.memoryUsage().heapUsed;
  try {
    await fc.assert(property, { numRuns, seed: SEED, verbose: true });
  } catch (error) {
    console.error(`sandbox bad-input property failed; replay with FC_SEED=${SEED}`);
    throw error;
  }
  expect(logLines.filter((line) => line.includes('"level":50'))).toEqual([]);
  // Bodies up to 2.1 MB and 200,000-deep JSON went through: nothing of them may be kept.
  expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(256 * 1024 * 1024);
}

describe('random requests (property)', () => {
  it('random bodies on every write route never answer 5xx and write nothing when refused', async () => {
    const state = { digest: stateDigest() };
    await assertWithSeed(
      fc.asyncProperty(
        fc.constantFrom(...WRITES()),
        headers,
        body,
        async ([method, target, who], extra, payload) => {
          const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
          await checkOne(method, target, extra, bytes, who, state);
        },
      ),
      300,
    );
  }, 60_000);

  it('random paths, queries, headers and bodies never answer 5xx and write nothing when refused', async () => {
    const state = { digest: stateDigest() };
    await assertWithSeed(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
        path(),
        query,
        headers,
        body,
        credentials,
        async (method, target, search, extra, payload, who) => {
          const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
          await checkOne(method, `${target}${search}`, extra, bytes, who, state);
        },
      ),
      600,
    );
  }, 60_000);
});
