import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestExplanationSchema, type RequestExplanation } from '@settlement/protocol';
import { loadKeys, type Keys } from '../config';
import { recordAttempts } from '../services/services';
import {
  SIGNATURE_PATTERN,
  fundedWallet,
  secretsOf,
  startBff,
  startSandbox,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from '../test-support/harness';
import { createUpstream, type Upstream } from '../upstream/upstream';

let sandbox: SandboxProcess;
let bff: BffInstance;
let support: Browser;
let keys: Keys;
const upstreams: Upstream[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 20 });
  bff = await startBff({ sandbox });
  support = await bff.login('support');
  keys = loadKeys(bff.bff.services.config.keysFile);
}, 60_000);

afterAll(async () => {
  for (const upstream of upstreams) await upstream.close();
  await bff.close();
  await sandbox.stop();
});

/** A client of the BFF's own keys against the real sandbox, with a provokable clock/nonce. */
function upstreamWith(
  clock: { now?: () => number; nonce?: () => string },
  withKeys: Keys = keys,
): Upstream {
  const upstream = createUpstream({
    baseUrl: sandbox.url,
    keys: withKeys,
    timeoutMs: 3000,
    clock,
  });
  upstreams.push(upstream);
  return upstream;
}

/** Sends through the BFF's request log, as every upstream call of the BFF does. */
async function send(
  upstream: Upstream,
  scope: Parameters<Upstream['clientFor']>[0],
  method: 'GET' | 'POST',
  target: string,
  options: { body?: unknown; idempotencyKey?: string } = {},
) {
  const chosen = upstream.clientFor(scope);
  if (!chosen) throw new Error(`no key for ${String(scope)}`);
  const response = await chosen.client.send(method, target, {
    ...(options.body === undefined
      ? {}
      : { body: new TextEncoder().encode(JSON.stringify(options.body)) }),
    ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
    requestId: `test-${randomUUID()}`,
    maxAttempts: 1,
    onAttempt: recordAttempts(bff.bff.services, {
      operator: 'test',
      operation: 'test.call',
      operationId: null,
    }),
  });
  return response;
}

async function explain(requestId: string): Promise<RequestExplanation> {
  const response = await bff.call(
    'GET',
    `/bff/support/requests/${encodeURIComponent(requestId)}/explanation`,
    { browser: support },
  );
  expect(response.status, response.text).toBe(200);
  expect(response.text).not.toMatch(SIGNATURE_PATTERN);
  for (const secret of secretsOf(bff)) expect(response.text).not.toContain(secret);
  return RequestExplanationSchema.parse(response.json);
}

describe('why did this request fail', () => {
  it('names the timestamp skew in seconds when the BFF clock runs 400 s ahead', async () => {
    const skewed = upstreamWith({ now: () => Date.now() + 400_000 });
    const response = await send(skewed, 'wallets:read', 'GET', '/api/v1/wallets');
    expect(response.status).toBe(401);
    const explanation = await explain(response.requestIdSent);
    expect(explanation.cause).toBe('timestamp-skew');
    expect(explanation.skew?.allowedSeconds).toBe(300);
    expect(explanation.skew?.seconds).toBeGreaterThanOrEqual(398);
    expect(explanation.skew?.seconds).toBeLessThanOrEqual(402);
    expect(explanation.summary).toMatch(/ahead of the upstream's clock/);
    expect(explanation.signed).toMatchObject({ method: 'GET', keyId: expect.any(String) });
  });

  it('names the earlier request when a nonce is reused', async () => {
    const nonce = `reused-${randomUUID()}`;
    const replaying = upstreamWith({ nonce: () => nonce });
    const first = await send(replaying, 'wallets:read', 'GET', '/api/v1/wallets');
    expect(first.status).toBe(200);
    const second = await send(replaying, 'wallets:read', 'GET', '/api/v1/wallets?limit=5');
    expect(second.status).toBe(401);
    const explanation = await explain(second.requestIdSent);
    expect(explanation.cause).toBe('nonce-reused');
    expect(explanation.nonce).toMatchObject({
      firstRequestId: first.requestIdSent,
      retentionSeconds: 600,
    });
    expect(explanation.signed?.nonce).toBe(nonce);
    expect(explanation.summary).toContain(first.requestIdSent);
  });

  it('names an unknown key when the upstream has never seen the key id', async () => {
    const rogue = upstreamWith(
      {},
      {
        orgId: keys.orgId,
        keys: [
          { name: 'rogue', keyId: 'key_rogue', seed: randomBytes(32), scopes: ['wallets:read'] },
        ],
      },
    );
    const response = await send(rogue, 'wallets:read', 'GET', '/api/v1/wallets');
    expect(response.status).toBe(401);
    const explanation = await explain(response.requestIdSent);
    expect(explanation.cause).toBe('unknown-key');
    expect(explanation.key).toMatchObject({ keyId: 'key_rogue', isConfigured: false });
  });

  it('names the differing fingerprint part when a changed body reuses an idempotency key', async () => {
    const admin = await bff.login('admin');
    const treasury = await bff.login('treasury');
    const { accountId } = await fundedWallet(bff, admin, treasury, '1000000');
    const other = await bff.call('POST', '/bff/api/v1/ledger/accounts', {
      browser: treasury,
      body: { name: 'Other' },
    });
    const otherAccountId = (other.json as { id: string }).id;
    const plain = upstreamWith({});
    const key = `explain-${randomUUID()}`;
    const first = await send(plain, 'wallets:create', 'POST', '/api/v1/wallets', {
      body: { chain: 'tron:nile', accountId },
      idempotencyKey: key,
    });
    expect(first.status).toBe(201);
    const changed = await send(plain, 'wallets:create', 'POST', '/api/v1/wallets', {
      body: { chain: 'tron:nile', accountId: otherAccountId },
      idempotencyKey: key,
    });
    expect(changed.status).toBe(409);
    const explanation = await explain(changed.requestIdSent);
    expect(explanation.cause).toBe('idempotency-conflict');
    expect(explanation.idempotency).toMatchObject({
      key,
      firstRequestId: first.requestIdSent,
      differs: ['bodyHash'],
    });
    expect(explanation.idempotency?.first.bodyHash).not.toBe(
      explanation.idempotency?.this.bodyHash,
    );

    // 422: the field and the rule.
    const { walletId } = await fundedWallet(bff, admin, treasury, '1000000');
    const invalid = await send(plain, 'withdrawals:create', 'POST', '/api/v1/transactions', {
      body: { walletId, asset: 'TRX', toAddress: 'not-an-address', amountAtomic: '1' },
      idempotencyKey: `explain-${randomUUID()}`,
    });
    expect(invalid.status).toBe(422);
    const why = await explain(invalid.requestIdSent);
    expect(why.cause).toBe('domain-rule');
    expect(why.validation?.field).toBe('toAddress');
  }, 90_000);

  it('answers 404 in the envelope for a request id nobody logged', async () => {
    const response = await bff.call('GET', '/bff/support/requests/nope-123/explanation', {
      browser: support,
    });
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });
});
