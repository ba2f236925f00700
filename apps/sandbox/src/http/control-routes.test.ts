import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase64 } from '@settlement/protocol';
import {
  createNobleSigner,
  generateSeed,
  publicKeyFromSeed,
  signRestRequest,
} from '@settlement/protocol/signing';
import { createOrgClient, startHarness, type Harness } from '../test-support/sandbox-harness';
import { DEFAULT_FAULTS } from '../domain/faults';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness.close();
});

async function newOrg(): Promise<string> {
  const res = await harness.admin('POST', '/sandbox/orgs', { name: 'Control test' });
  expect(res.status).toBe(201);
  return (res.body as { orgId: string }).orgId;
}

describe('control plane', () => {
  it('serves /sandbox/healthz without a token', async () => {
    const res = await fetch(`${harness.baseUrl}/sandbox/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('refuses a missing or wrong admin token with 401 in the envelope', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', 'Basic abc']) {
      const res = await fetch(`${harness.baseUrl}/sandbox/orgs`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(authorization === undefined ? {} : { authorization }),
        },
        body: JSON.stringify({ name: 'x' }),
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'UNAUTHENTICATED', retryable: false });
    }
  });

  it('creates orgs and validates the body', async () => {
    expect((await harness.admin('POST', '/sandbox/orgs', {})).status).toBe(400);
    expect((await harness.admin('POST', '/sandbox/orgs', { name: '  ' })).status).toBe(400);
    const res = await harness.admin('POST', '/sandbox/orgs', { name: 'Acme' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ orgId: expect.any(String) });
  });

  it('generates a key pair and returns the private key once; stores only the public key', async () => {
    const orgId = await newOrg();
    const res = await harness.admin('POST', `/sandbox/orgs/${orgId}/api-keys`, {
      scopes: ['wallets:read', 'co-signer'],
    });
    expect(res.status).toBe(201);
    const body = res.body as { keyId: string; orgId: string; scopes: string[]; privateKey: string };
    expect(body).toMatchObject({ orgId, scopes: ['wallets:read', 'co-signer'] });
    const stored = harness.sandbox.ctx.db
      .prepare<[string], { public_key: string }>('SELECT public_key FROM api_keys WHERE id = ?')
      .get(body.keyId);
    expect(stored?.public_key).not.toBe(body.privateKey);
    const columns = harness.sandbox.ctx.db
      .prepare<[], { name: string }>("SELECT name FROM pragma_table_info('api_keys')")
      .all()
      .map((c) => c.name);
    expect(columns).not.toContain('private_key');
  });

  it('registers a supplied public key without returning a private key', async () => {
    const orgId = await newOrg();
    const seed = generateSeed();
    const res = await harness.admin('POST', `/sandbox/orgs/${orgId}/api-keys`, {
      scopes: ['accounts:read'],
      publicKey: toBase64(publicKeyFromSeed(seed)),
    });
    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('privateKey');
    const { keyId } = res.body as { keyId: string };
    const headers = signRestRequest(createNobleSigner(keyId, seed), {
      method: 'GET',
      target: '/api/v1/ledger/accounts',
      body: null,
    }) as Record<string, string>;
    const call = await fetch(`${harness.baseUrl}/api/v1/ledger/accounts`, { headers });
    expect(call.status).toBe(200);
  });

  it('rejects bad scopes, bad or weak public keys and unknown orgs', async () => {
    const orgId = await newOrg();
    const bad = [
      { scopes: [] },
      { scopes: ['root'] },
      { scopes: ['wallets:read', 'wallets:read'] },
      { scopes: ['wallets:read'], publicKey: 'not-base64!' },
      { scopes: ['wallets:read'], publicKey: toBase64(new Uint8Array(31)) },
      { scopes: ['wallets:read'], publicKey: toBase64(Uint8Array.of(1, ...new Uint8Array(31))) },
      { scopes: ['wallets:read'], extra: true },
    ];
    for (const body of bad) {
      const res = await harness.admin('POST', `/sandbox/orgs/${orgId}/api-keys`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.body as { code: string }).code).toBe('VALIDATION_ERROR');
    }
    const missing = await harness.admin('POST', '/sandbox/orgs/nope/api-keys', {
      scopes: ['wallets:read'],
    });
    expect(missing.status).toBe(404);
  });

  it('switches the Co-Signer, which starts OFFLINE, and its local health follows', async () => {
    const orgId = await newOrg();
    const health = () => fetch(`${harness.baseUrl}/co-signer/${orgId}/healthz`);
    const before = await health();
    expect(before.status).toBe(503);
    expect(await before.json()).toMatchObject({ status: 'offline' });
    const on = await harness.admin('PUT', `/sandbox/orgs/${orgId}/co-signer`, { online: true });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ orgId, online: true });
    const after = await health();
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ status: 'ok', orgId, online: true });
    expect(
      (await harness.admin('PUT', `/sandbox/orgs/${orgId}/co-signer`, { online: 'yes' })).status,
    ).toBe(400);
    await harness.admin('PUT', `/sandbox/orgs/${orgId}/co-signer`, { online: false });
    expect((await health()).status).toBe(503);
  });

  it('merges faults: omitted fields keep their value, null restores the default', async () => {
    const orgId = await newOrg();
    const initial = await harness.admin('GET', `/sandbox/orgs/${orgId}/faults`);
    expect(initial.body).toEqual(DEFAULT_FAULTS);
    const set = await harness.admin('PUT', `/sandbox/orgs/${orgId}/faults`, {
      envelope: 'both',
      walletPlanLimit: 3,
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ envelope: 'both', walletPlanLimit: 3 });
    const merged = await harness.admin('PUT', `/sandbox/orgs/${orgId}/faults`, {
      latencyMs: 5,
    });
    expect(merged.body).toMatchObject({ envelope: 'both', walletPlanLimit: 3, latencyMs: 5 });
    const reset = await harness.admin('PUT', `/sandbox/orgs/${orgId}/faults`, {
      envelope: null,
      latencyMs: null,
    });
    expect(reset.body).toMatchObject({ envelope: 'mvp', walletPlanLimit: 3, latencyMs: 0 });
    for (const body of [
      { envelope: 'xml' },
      { upstreamUnavailableRate: 2 },
      { unknownSwitch: true },
      { nextTransactionOutcome: 'MAYBE' },
    ]) {
      expect((await harness.admin('PUT', `/sandbox/orgs/${orgId}/faults`, body)).status).toBe(400);
    }
  });
});

describe('request-level fault switches', () => {
  it('upstreamUnavailableRate 1 answers mutating requests 503 retryable and creates nothing', async () => {
    const client = await createOrgClient(harness, ['wallets:create', 'accounts:read']);
    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, {
      upstreamUnavailableRate: 1,
    });
    const res = await client.call('POST', '/api/v1/ledger/accounts', { name: 'Never' });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', retryable: true });
    const list = await client.get('/api/v1/ledger/accounts');
    expect(list.status).toBe(200);
    expect((list.body as { items: unknown[] }).items).toHaveLength(0);
    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, {
      upstreamUnavailableRate: null,
    });
    expect((await client.call('POST', '/api/v1/ledger/accounts', { name: 'Now' })).status).toBe(
      201,
    );
  });

  it('latencyMs delays /api/v1 responses', async () => {
    const client = await createOrgClient(harness, ['accounts:read']);
    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/faults`, { latencyMs: 150 });
    const started = performance.now();
    const res = await client.get('/api/v1/ledger/accounts');
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });
});
