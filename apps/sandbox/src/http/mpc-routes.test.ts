import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssetCatalogSchema, MpcStatusSchema, MPC_INITIALIZE_BODY } from '@settlement/protocol';
import {
  createOrgClient,
  newKey,
  startHarness,
  waitFor,
  type Harness,
  type OrgClient,
} from '../test-support/sandbox-harness';
import { setAssetEnabled } from '../domain/assets';
import { advanceMpcProvisioning } from '../domain/mpc';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ blockMs: 20 });
});
afterAll(async () => {
  await harness.close();
});

const MPC_SCOPES = ['mpc:initialize', 'mpc:read'];

async function status(client: OrgClient) {
  const res = await client.get('/api/v1/mpc/status');
  expect(res.status).toBe(200);
  return MpcStatusSchema.parse(res.body);
}

describe('POST /api/v1/mpc/initialize', () => {
  it('accepts exactly {} with its hash: 202 {orgId,keyId,keyStatus} and replays the same key', async () => {
    const client = await createOrgClient(harness, MPC_SCOPES);
    const key = newKey('mpc');
    const first = await client.post('/api/v1/mpc/initialize', MPC_INITIALIZE_BODY, key);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({
      orgId: client.orgId,
      keyId: expect.any(String),
      keyStatus: 'PROVISIONING',
    });
    const again = await client.post('/api/v1/mpc/initialize', MPC_INITIALIZE_BODY, key);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('x-idempotent-replayed')).toBe('true');
  });

  it('refuses a zero-length body and any body other than the two bytes {}', async () => {
    const client = await createOrgClient(harness, MPC_SCOPES);
    const empty = await client.call('POST', '/api/v1/mpc/initialize', undefined, {
      'x-idempotency-key': newKey(),
    });
    expect(empty.status).toBe(400);
    expect((empty.body as { code: string }).code).toBe('VALIDATION_ERROR');
    for (const body of ['{ }', '{"a":1}', '[]', '{}\n']) {
      const res = await client.post('/api/v1/mpc/initialize', body, newKey());
      expect(res.status, body).toBe(400);
      expect((res.body as { code: string }).code).toBe('VALIDATION_ERROR');
    }
    const wrongType = await client.call('POST', '/api/v1/mpc/initialize', '{}', {
      'x-idempotency-key': newKey(),
      'content-type': 'text/plain',
    });
    expect(wrongType.status).toBe(400);
    expect((await status(client)).keyStatus).toBeNull();
  });

  it('answers a second initialize with another key, or a changed request with the same key, 400 mpc.errors.IDEMPOTENCY_CONFLICT', async () => {
    const client = await createOrgClient(harness, MPC_SCOPES);
    const key = newKey();
    expect((await client.post('/api/v1/mpc/initialize', '{}', key)).status).toBe(202);
    const other = await client.post('/api/v1/mpc/initialize', '{}', newKey());
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ code: 'mpc.errors.IDEMPOTENCY_CONFLICT', retryable: false });
    const changed = await client.call('POST', '/api/v1/mpc/initialize?x=1', '{}', {
      'x-idempotency-key': key,
    });
    expect(changed.status).toBe(400);
    expect((changed.body as { code: string }).code).toBe('mpc.errors.IDEMPOTENCY_CONFLICT');
  });

  it('requires the idempotency key and the mpc:initialize scope', async () => {
    const client = await createOrgClient(harness, MPC_SCOPES);
    const missing = await client.call('POST', '/api/v1/mpc/initialize', '{}');
    expect(missing.status).toBe(400);
    expect((missing.body as { code: string }).code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const reader = await createOrgClient(harness, ['mpc:read'], client.orgId);
    expect((await reader.post('/api/v1/mpc/initialize', '{}', newKey())).status).toBe(403);
  });
});

describe('GET /api/v1/mpc/status', () => {
  it('reports nothing initialized and the Co-Signer OFFLINE for a new org', async () => {
    const client = await createOrgClient(harness, MPC_SCOPES);
    const s = await status(client);
    expect(s).toMatchObject({
      orgId: client.orgId,
      keyId: null,
      keyStatus: null,
      coSigner: { status: 'OFFLINE', lastSeenAt: null },
    });
    expect(s.chains.map((c) => c.chain).sort()).toEqual(['tron:mainnet', 'tron:nile']);
    expect(s.chains.every((c) => !c.ready && c.reason !== null)).toBe(true);
  });

  it('keeps the key PROVISIONING while the Co-Signer is offline, then ACTIVE and chains ready once online', async () => {
    const client = await createOrgClient(harness, MPC_SCOPES);
    await client.post('/api/v1/mpc/initialize', '{}', newKey());
    // Run the provisioning step now instead of waiting for its timer: offline, it must not activate.
    advanceMpcProvisioning(harness.sandbox.ctx.db, new Date(harness.sandbox.ctx.nowMs()));
    const offline = await status(client);
    expect(offline.keyStatus).toBe('PROVISIONING');
    expect(offline.chains[0]?.reason).toMatch(/provisioning/i);

    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/co-signer`, { online: true });
    const active = await waitFor(async () => {
      const s = await status(client);
      return s.keyStatus === 'ACTIVE' ? s : undefined;
    }, 'key ACTIVE');
    expect(active.coSigner.status).toBe('ONLINE');
    expect(active.coSigner.lastSeenAt).toEqual(expect.any(String));
    expect(active.chains.every((c) => c.ready && c.reason === null)).toBe(true);

    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/co-signer`, { online: false });
    const down = await status(client);
    expect(down.keyStatus).toBe('ACTIVE');
    expect(down.coSigner.status).toBe('OFFLINE');
    expect(down.chains.every((c) => !c.ready && /offline/i.test(c.reason ?? ''))).toBe(true);
  });

  it('marks a chain not ready when no asset is enabled on it for the org', async () => {
    const client = await createOrgClient(harness, MPC_SCOPES);
    setAssetEnabled(harness.sandbox.ctx.db, client.orgId, 'TRX', 'tron:mainnet', false);
    setAssetEnabled(harness.sandbox.ctx.db, client.orgId, 'USDT', 'tron:mainnet', false);
    const s = await status(client);
    expect(s.chains.find((c) => c.chain === 'tron:mainnet')?.reason).toMatch(/not enabled/);
  });
});

describe('GET /api/v1/assets', () => {
  it('lists TRX and USDT with 6 decimals and the real USDT contracts, for any key of the org', async () => {
    const client = await createOrgClient(harness, ['wallets:read']);
    const res = await client.get('/api/v1/assets');
    expect(res.status).toBe(200);
    const catalog = AssetCatalogSchema.parse(res.body);
    expect(catalog.items).toEqual([
      {
        asset: 'TRX',
        name: expect.any(String),
        decimals: 6,
        chains: [
          { chain: 'tron:mainnet', enabled: true, contractAddress: null },
          { chain: 'tron:nile', enabled: true, contractAddress: null },
        ],
      },
      {
        asset: 'USDT',
        name: expect.any(String),
        decimals: 6,
        chains: [
          {
            chain: 'tron:mainnet',
            enabled: true,
            contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
          },
          {
            chain: 'tron:nile',
            enabled: true,
            contractAddress: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
          },
        ],
      },
    ]);
  });

  it('reflects per-org enablement', async () => {
    const client = await createOrgClient(harness, ['wallets:read']);
    setAssetEnabled(harness.sandbox.ctx.db, client.orgId, 'USDT', 'tron:nile', false);
    const catalog = AssetCatalogSchema.parse((await client.get('/api/v1/assets')).body);
    const usdt = catalog.items.find((a) => a.asset === 'USDT');
    expect(usdt?.chains.find((c) => c.chain === 'tron:nile')?.enabled).toBe(false);
    expect(usdt?.chains.find((c) => c.chain === 'tron:mainnet')?.enabled).toBe(true);
  });
});
