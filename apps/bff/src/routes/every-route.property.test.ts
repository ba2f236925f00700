import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '@settlement/protocol';
import {
  startBff,
  startSandbox,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from '../test-support/harness';

/**
 * Bad input on every BFF route (the API proxy, the static console and the second-wave routes:
 * governance, operators, passkeys, sessions, support, audit, exports, saved views, labels, event
 * history), through a signed-in admin session with CSRF so requests reach the handlers: random
 * methods, path segments (malformed percent-encoding among them), query strings, headers and
 * bodies (huge, deeply nested, wrong content types). Never a 5xx, always the error envelope for
 * a refusal, a refusal changes nothing (neither what an operator can read nor any state table of
 * the BFF's database, nor the upstream's resources), and memory stays bounded.
 * Replay a failure with FC_SEED=<seed>. The fixed cases (percent-encoding, aborted requests)
 * are in bad-input.test.ts.
 */

const SEED = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31));
const MALFORMED = ['%zz', '%FF', '%', '%C0%AF', '%ED%A0%80', '%E0%A4', '%5', '%%'] as const;

let sandbox: SandboxProcess;
let bff: BffInstance;
let admin: Browser;

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff({ sandbox, policy: 'demo' });
  admin = await bff.login('admin');
}, 60_000);

afterAll(async () => {
  await bff.close();
  await sandbox.stop();
});

/** Everything an admin can read that a write could change (ids and versions, not clocks). */
const STATE_READS = [
  '/bff/policy',
  '/bff/policy/versions',
  '/bff/address-book',
  '/bff/withdrawal-requests',
  '/bff/operators',
  '/bff/saved-views',
  '/bff/wallet-labels',
  '/bff/auth/passkeys',
  '/bff/api/v1/ledger/accounts?limit=200',
  '/bff/api/v1/wallets?limit=200',
  '/bff/api/v1/transactions?limit=200',
] as const;

/** Fields that move on their own (last use, clocks): not state a request could have written. */
const VOLATILE = /"(lastSeenAt|lastUsedAt|updatedAt|expiresAt|at|now|serverTime)":"[^"]*"/g;

/** Tables that record activity rather than state: sessions (idle clock), logs, relayed events. */
const ACTIVITY_TABLES = new Set([
  'sessions',
  'request_log',
  'audit_log',
  'events',
  'rejected_events',
]);

/**
 * The journal row an upstream refusal of a journaled operation leaves: the operation's outcome
 * (state `failed`, the refusal's status and body), which a retry of the same action replays.
 */
type RecordedRefusal = { operationId: string; status: number; body: string };

/**
 * Every state table of the BFF's database (new tables are included as they appear), without
 * the journal row of `refusal` when it records exactly that refusal.
 */
function tablesDigest(refusal?: RecordedRefusal): string {
  const tables = bff.db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all() as { name: string }[];
  const hash = createHash('sha256');
  for (const { name } of tables) {
    if (ACTIVITY_TABLES.has(name)) continue;
    hash.update(name);
    const rows =
      name === 'journal' && refusal
        ? bff.db
            .prepare(
              `SELECT * FROM journal WHERE NOT (operation_id = ? AND state = 'failed' AND status = ?
                 AND CAST(response AS TEXT) = ?)`,
            )
            .raw()
            .all(refusal.operationId, refusal.status, refusal.body)
        : bff.db.prepare(`SELECT * FROM "${name}"`).raw().all();
    hash.update(JSON.stringify(rows));
  }
  return hash.digest('hex');
}

async function stateDigest(refusal?: RecordedRefusal): Promise<string> {
  const parts: string[] = [tablesDigest(refusal)];
  for (const path of STATE_READS) {
    const answer = await bff.call('GET', path, { browser: admin });
    parts.push(`${path} ${answer.status} ${answer.text.replace(VOLATILE, '')}`);
  }
  return parts.join('\n');
}

/** pchar of RFC 3986 without `%` (ASCII only, so splitting by code unit is exact). */
const PATH_CHARS = Array.from(
  `abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@`,
);
const token = fc.string({ unit: fc.constantFrom(...PATH_CHARS), maxLength: 12 });
const segment = fc.oneof(
  fc.constantFrom(...MALFORMED),
  fc.constantFrom(
    '.',
    '..',
    '%2e%2e',
    '%2F',
    '%00',
    '%20',
    '',
    'admin2',
    'support',
    'x'.repeat(300),
  ),
  token,
  fc.string({ maxLength: 12 }).map((text) => encodeURIComponent(text)),
  fc.tuple(token, fc.constantFrom(...MALFORMED), token).map((parts) => parts.join('')),
);

/** Every route of app.ts but logout (it would end the session the property runs in). */
const TEMPLATES = [
  '/bff/api/v1/ledger/accounts',
  '/bff/api/v1/ledger/accounts/:id',
  '/bff/api/v1/ledger/accounts/:id/balances',
  '/bff/api/v1/ledger/accounts/:id/transactions',
  '/bff/api/v1/wallets',
  '/bff/api/v1/wallets/:id',
  '/bff/api/v1/wallets/:id/balances',
  '/bff/api/v1/transactions',
  '/bff/api/v1/transactions/:id',
  '/bff/api/v1/assets',
  '/bff/api/v1/mpc/status',
  '/bff/api/v1/:id',
  '/bff/auth/login',
  '/bff/auth/me',
  '/bff/auth/password',
  '/bff/auth/passkeys',
  '/bff/auth/passkeys/:id',
  '/bff/auth/passkeys/register/options',
  '/bff/auth/passkeys/register/verify',
  '/bff/auth/passkeys/login/options',
  '/bff/auth/passkeys/login/verify',
  '/bff/auth/step-up/options',
  '/bff/auth/step-up/verify',
  '/bff/auth/sessions',
  '/bff/auth/sessions/:id',
  '/bff/operators',
  '/bff/operators/:id',
  '/bff/operators/:id/reset-password',
  '/bff/operators/:id/passkeys',
  '/bff/operators/:id/passkeys/:id',
  '/bff/policy',
  '/bff/policy/versions',
  '/bff/policy/dry-run',
  '/bff/withdrawal-requests',
  '/bff/withdrawal-requests/:id',
  '/bff/withdrawal-requests/:id/approve',
  '/bff/withdrawal-requests/:id/reject',
  '/bff/withdrawal-requests/:id/cancel',
  '/bff/address-book',
  '/bff/address-book/:id',
  '/bff/address-book/:id/approve',
  '/bff/support/search',
  '/bff/support/timeline',
  '/bff/support/requests/:id/explanation',
  '/bff/audit',
  '/bff/export/transactions.csv',
  '/bff/export/wallets.csv',
  '/bff/export/accounts.csv',
  '/bff/export/audit.csv',
  '/bff/export/:id',
  '/bff/operations/:id',
  '/bff/operations/:id/abandon',
  '/bff/overview',
  '/bff/wallet-labels',
  '/bff/wallet-labels/:id',
  '/bff/saved-views',
  '/bff/saved-views/:id',
  '/bff/events/history',
  '/bff/config',
  '/bff/sandbox/deposits',
  '/bff/sandbox/co-signer',
  '/bff/healthz',
  '/bff/readyz',
  '/bff/co-signer/health',
  '/bff/api/v1/ledger/accounts/:id/wallets',
  '/bff/api/v1/mpc/initialize',
  '/bff/:id',
  '/bff/:id/:id',
  '/assets/:id',
  '/:id',
] as const;

const path = fc
  .tuple(fc.constantFrom(...TEMPLATES), segment, segment)
  .map(([template, first, second]) => template.replace(':id', first).replace(':id', second));

const query = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom('q', 'limit', 'page', 'cursor', 'status', 'before', 'snapshotAt', 'after'),
        segment,
      ),
      fc.option(segment, { nil: undefined }),
    ),
    { maxLength: 4 },
  )
  .map((pairs) =>
    pairs.length === 0
      ? ''
      : `?${pairs.map(([key, value]) => (value === undefined ? key : `${key}=${value}`)).join('&')}`,
  );

const deepJson = fc
  .tuple(fc.integer({ min: 1_000, max: 60_000 }), fc.constantFrom('[', '{"a":'))
  .map(([depth, open]) => {
    const close = open === '[' ? ']' : '}';
    return `{"name":${open.repeat(depth)}1${close.repeat(depth)}}`;
  });

const body = fc.oneof(
  fc.constant<string | undefined>(undefined),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc.constantFrom(
    '{}',
    '{"name":',
    '{"online":"yes"}',
    '{"username":1,"password":[]}',
    '{"rules":[],"limits":[],"settings":{}}',
    '{"role":"admin","disabled":true}',
    '{"username":"","role":"root"}',
    '{"reason":""}',
    '{"chain":"tron:nile","address":"T","label":""}',
    '{"walletId":"w","asset":"TRX","toAddress":"x","amountAtomic":"-1"}',
    '{"currentPassword":1,"newPassword":[]}',
  ),
  deepJson,
  fc.integer({ min: 1, max: 3 }).map((n) => `"${'x'.repeat(n * 600 * 1024)}"`),
  fc.string({ maxLength: 64 }),
);

const visible = fc.string({
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
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
        'x-operation-id': fc.oneof(fc.string({ maxLength: 200 }), visible),
        'x-request-id': visible,
        accept: fc.constantFrom('application/json', 'text/csv', 'text/html', '*/*'),
        'accept-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x-unknown'),
        'x-random': visible,
      },
      { requiredKeys: [] },
    ),
  },
);

describe('random requests on every BFF route (property)', () => {
  it('never answer 5xx, refuse in the envelope, change nothing when they refuse, and keep memory bounded', async () => {
    console.info(`BFF every-route property: FC_SEED=${SEED}`);
    let state = await stateDigest();
    const heapBefore = process.memoryUsage().heapUsed;
    const property = fc.asyncProperty(
      fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
      path,
      query,
      headers,
      body,
      async (method, target, search, extra, payload) => {
        const answer = await bff.call(method, `${target}${search}`, {
          browser: admin,
          headers: extra,
          ...(payload === undefined ? {} : { rawBody: payload }),
        });
        const context = `${method} ${target}${search} -> ${answer.status} ${answer.text.slice(0, 200)}`;
        expect(answer.status, context).toBeLessThan(500);
        if (answer.status >= 400) {
          const parsed = ErrorEnvelopeSchema.safeParse(answer.json);
          expect(parsed.success, context).toBe(true);
          expect(answer.headers['x-request-id'], context).toBe(
            (answer.json as { requestId?: unknown }).requestId,
          );
        }
        if (answer.status >= 400 || method === 'GET') {
          const now = await stateDigest();
          const operationId = extra['x-operation-id'];
          // The upstream refused a journaled operation: its outcome is recorded (and replayed
          // to a retry of the same action), and nothing else may have changed.
          const refusal =
            now !== state && answer.status >= 400 && operationId !== undefined
              ? { operationId, status: answer.status, body: answer.text }
              : undefined;
          if (refusal) expect(await stateDigest(refusal), context).toBe(state);
          else expect(now, context).toBe(state);
          state = now;
        } else {
          state = await stateDigest();
        }
      },
    );
    try {
      await fc.assert(property, { numRuns: 500, seed: SEED, verbose: true });
    } catch (error) {
      console.error(`BFF every-route property failed; replay with FC_SEED=${SEED}`);
      throw error;
    }
    // Bodies up to 1.8 MB and 60,000-deep JSON went through: what stays must not grow with them.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(256 * 1024 * 1024);
    expect(bff.logLines.filter((line) => line.includes('"msg":"unhandled error"'))).toEqual([]);
  }, 180_000);
});
