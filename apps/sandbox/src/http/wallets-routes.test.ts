import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BalanceListSchema, isTronAddress, utf8Bytes, WalletSchema } from '@settlement/protocol';
import { signRestRequest } from '@settlement/protocol/signing';
import { createSandbox } from '../app';
import {
  ADMIN_TOKEN,
  createOrgClient,
  events,
  makeReady,
  newKey,
  startHarness,
  type Harness,
  type OrgClient,
} from '../test-support/sandbox-harness';

let harness: Harness;
let client: OrgClient;
let accountId: string;

const SCOPES = ['wallets:create', 'wallets:read', 'accounts:read', 'mpc:initialize', 'mpc:read'];

beforeAll(async () => {
  harness = await startHarness({ blockMs: 20 });
  client = await createOrgClient(harness, SCOPES);
  await makeReady(harness, client);
  accountId = await newAccount(client, 'Treasury');
});
afterAll(async () => {
  await harness.close();
});

async function newAccount(who: OrgClient, name: string): Promise<string> {
  const res = await who.call('POST', '/api/v1/ledger/accounts', { name });
  expect(res.status).toBe(201);
  return (res.body as { id: string }).id;
}

type WalletPage = {
  items: { id: string; chain: string; createdAt: string }[];
  nextCursor: string | null;
};

describe('POST /api/v1/wallets', () => {
  it('creates an ACTIVE wallet with a real TRON address and emits wallet.created', async () => {
    const key = newKey('w');
    const res = await client.post('/api/v1/wallets', { chain: 'tron:nile', accountId }, key);
    expect(res.status).toBe(201);
    const wallet = WalletSchema.parse(res.body);
    expect(wallet).toMatchObject({
      chain: 'tron:nile',
      accountId,
      accountName: 'Treasury',
      status: 'ACTIVE',
    });
    expect(isTronAddress(wallet.address)).toBe(true);
    const event = events(harness, client.orgId).find((e) => e.data.walletId === wallet.id);
    expect(event).toMatchObject({
      type: 'wallet.created',
      correlationId: res.headers.get('x-correlation-id'),
      data: {
        walletId: wallet.id,
        accountId,
        orgId: client.orgId,
        chain: 'tron:nile',
        address: wallet.address,
        status: 'ACTIVE',
        createdAt: wallet.createdAt,
        requestId: res.headers.get('x-request-id'),
        idempotencyKey: key,
      },
    });
  });

  it('replays the same key and body with the same status and body, and creates one wallet', async () => {
    const key = newKey('replay');
    const body = { chain: 'tron:mainnet', accountId };
    const first = await client.post('/api/v1/wallets', body, key);
    const second = await client.post('/api/v1/wallets', body, key);
    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('x-idempotent-replayed')).toBe('true');
    const id = (first.body as { id: string }).id;
    expect(events(harness, client.orgId).filter((e) => e.data.walletId === id)).toHaveLength(1);
  });

  it('answers the same key with a changed body or target 409 IDEMPOTENCY_CONFLICT', async () => {
    const key = newKey('conflict');
    expect(
      (await client.post('/api/v1/wallets', { chain: 'tron:nile', accountId }, key)).status,
    ).toBe(201);
    const changed = await client.post('/api/v1/wallets', { chain: 'tron:mainnet', accountId }, key);
    expect(changed.status).toBe(409);
    expect(changed.body).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', retryable: false });
    const spaced = await client.post(
      '/api/v1/wallets',
      `{"chain":"tron:nile", "accountId":"${accountId}"}`,
      key,
    );
    expect(spaced.status).toBe(409);
    const otherTarget = await client.call(
      'POST',
      '/api/v1/wallets?x=1',
      { chain: 'tron:nile', accountId },
      {
        'x-idempotency-key': key,
      },
    );
    expect(otherTarget.status).toBe(409);
  });

  it('runs concurrent requests with one key as one operation', async () => {
    const key = newKey('burst');
    const body = { chain: 'tron:nile', accountId };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => client.post('/api/v1/wallets', body, key)),
    );
    const ids = new Set(results.map((r) => (r.body as { id: string }).id));
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect(events(harness, client.orgId).filter((e) => e.data.walletId === id)).toHaveLength(1);
  });

  it('requires a valid idempotency key: missing 400 REQUIRED, invalid 400 INVALID', async () => {
    const body = { chain: 'tron:nile', accountId };
    const missing = await client.call('POST', '/api/v1/wallets', body);
    expect(missing.status).toBe(400);
    expect((missing.body as { code: string }).code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    for (const key of ['', 'has space', 'k'.repeat(256), 'tab\tkey']) {
      const res = await client.post('/api/v1/wallets', body, key);
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect((res.body as { code: string }).code).toBe('IDEMPOTENCY_KEY_INVALID');
    }
    expect((await client.post('/api/v1/wallets', body, 'k'.repeat(255))).status).toBe(201);
  });

  it('maps bad input: 400 VALIDATION_ERROR, 422 UNSUPPORTED_CHAIN, 404 RESOURCE_NOT_FOUND', async () => {
    const cases: [unknown, number, string][] = [
      [{ chain: 'tron:nile' }, 400, 'VALIDATION_ERROR'],
      [{ chain: 5, accountId }, 400, 'VALIDATION_ERROR'],
      ['not json', 400, 'VALIDATION_ERROR'],
      [{ chain: 'eth:mainnet', accountId }, 422, 'UNSUPPORTED_CHAIN'],
      [{ chain: 'tron:nile', accountId: 'missing' }, 404, 'RESOURCE_NOT_FOUND'],
    ];
    const before = events(harness, client.orgId).length;
    for (const [body, status, code] of cases) {
      const res = await client.post('/api/v1/wallets', body, newKey());
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect((res.body as { code: string }).code).toBe(code);
    }
    expect(events(harness, client.orgId)).toHaveLength(before);
  });

  it('does not create wallets in another org’s account (404)', async () => {
    const other = await createOrgClient(harness, SCOPES);
    await makeReady(harness, other);
    const res = await other.post('/api/v1/wallets', { chain: 'tron:nile', accountId }, newKey());
    expect(res.status).toBe(404);
  });

  it('answers 503 UPSTREAM_UNAVAILABLE (retryable) before MPC is ready or while the Co-Signer is offline', async () => {
    const fresh = await createOrgClient(harness, SCOPES);
    const acc = await newAccount(fresh, 'Not ready');
    const notInitialized = await fresh.post(
      '/api/v1/wallets',
      { chain: 'tron:nile', accountId: acc },
      newKey(),
    );
    expect(notInitialized.status).toBe(503);
    expect(notInitialized.body).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', retryable: true });
    expect((notInitialized.body as { message: string }).message).toMatch(/not initialized/);

    await makeReady(harness, fresh);
    await harness.admin('PUT', `/sandbox/orgs/${fresh.orgId}/co-signer`, { online: false });
    const key = newKey();
    const offline = await fresh.post(
      '/api/v1/wallets',
      { chain: 'tron:nile', accountId: acc },
      key,
    );
    expect(offline.status).toBe(503);
    expect((offline.body as { message: string }).message).toMatch(/offline/);
    await harness.admin('PUT', `/sandbox/orgs/${fresh.orgId}/co-signer`, { online: true });
    // A rejected attempt recorded nothing: the same key now succeeds.
    expect(
      (await fresh.post('/api/v1/wallets', { chain: 'tron:nile', accountId: acc }, key)).status,
    ).toBe(201);
  });

  it('answers 403 PLAN_LIMIT_REACHED once the walletPlanLimit is reached', async () => {
    const limited = await createOrgClient(harness, SCOPES);
    await makeReady(harness, limited);
    const acc = await newAccount(limited, 'Limited');
    await harness.admin('PUT', `/sandbox/orgs/${limited.orgId}/faults`, { walletPlanLimit: 1 });
    expect(
      (await limited.post('/api/v1/wallets', { chain: 'tron:nile', accountId: acc }, newKey()))
        .status,
    ).toBe(201);
    const over = await limited.post(
      '/api/v1/wallets',
      { chain: 'tron:nile', accountId: acc },
      newKey(),
    );
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({ code: 'PLAN_LIMIT_REACHED', retryable: false });
    await harness.admin('PUT', `/sandbox/orgs/${limited.orgId}/faults`, { walletPlanLimit: null });
    expect(
      (await limited.post('/api/v1/wallets', { chain: 'tron:nile', accountId: acc }, newKey()))
        .status,
    ).toBe(201);
  });
});

describe('GET /api/v1/wallets', () => {
  it('filters by every parameter and pages with sortBy/sortOrder', async () => {
    const org = await createOrgClient(harness, SCOPES);
    await makeReady(harness, org);
    const a = await newAccount(org, 'A');
    const b = await newAccount(org, 'B');
    const made: {
      id: string;
      chain: string;
      accountId: string;
      address: string;
      createdAt: string;
    }[] = [];
    for (const [chain, acc] of [
      ['tron:nile', a],
      ['tron:mainnet', a],
      ['tron:nile', b],
      ['tron:nile', a],
    ] as const) {
      const res = await org.post('/api/v1/wallets', { chain, accountId: acc }, newKey());
      made.push(res.body as (typeof made)[number]);
    }
    const list = async (query: string) => {
      const res = await org.get(`/api/v1/wallets${query}`);
      expect(res.status, query).toBe(200);
      return res.body as WalletPage;
    };
    expect((await list('')).items.map((w) => w.id)).toEqual(made.map((w) => w.id).reverse());
    expect((await list('?sortOrder=asc')).items.map((w) => w.id)).toEqual(made.map((w) => w.id));
    expect((await list('?sortBy=updatedAt&sortOrder=asc')).items).toHaveLength(4);
    expect((await list('?chain=tron:mainnet')).items.map((w) => w.id)).toEqual([made[1]?.id]);
    expect((await list(`?accountId=${b}`)).items.map((w) => w.id)).toEqual([made[2]?.id]);
    expect((await list('?status=ACTIVE')).items).toHaveLength(4);
    expect((await list('?status=ARCHIVED')).items).toHaveLength(0);
    const fragment = made[3]?.address.slice(5, 15) ?? '';
    expect((await list(`?addressContains=${fragment}`)).items.map((w) => w.id)).toEqual([
      made[3]?.id,
    ]);
    const from = encodeURIComponent(made[2]?.createdAt ?? '');
    expect((await list(`?createdFrom=${from}&sortOrder=asc`)).items.map((w) => w.id)).toEqual([
      made[2]?.id,
      made[3]?.id,
    ]);
    expect((await list(`?createdTo=${from}`)).items.length).toBeGreaterThanOrEqual(3);

    const page1 = await list('?limit=3&sortOrder=asc');
    expect(page1.items.map((w) => w.id)).toEqual(made.slice(0, 3).map((w) => w.id));
    await org.post('/api/v1/wallets', { chain: 'tron:nile', accountId: a }, newKey());
    const page2 = await list(
      `?limit=3&sortOrder=asc&cursor=${encodeURIComponent(page1.nextCursor ?? '')}`,
    );
    expect(page2.items[0]?.id).toBe(made[3]?.id);
    expect(page2.items).toHaveLength(2);
    expect(page2.nextCursor).toBeNull();
    const mismatch = await org.get(
      `/api/v1/wallets?limit=3&cursor=${encodeURIComponent(page1.nextCursor ?? '')}`,
    );
    expect(mismatch.status).toBe(400);
  });

  it('rejects each bad query parameter with 400 INVALID_QUERY_PARAMETER', async () => {
    for (const query of [
      '?status=PENDING',
      '?chain=eth:mainnet',
      '?addressContains=0OIl',
      '?createdFrom=yesterday',
      '?createdFrom=2030-01-02T00:00:00Z&createdTo=2030-01-01T00:00:00Z',
      '?sortBy=address',
      '?sortOrder=up',
      '?limit=0',
      '?cursor=abc.def',
      '?status=ACTIVE&status=DISABLED',
    ]) {
      const res = await client.get(`/api/v1/wallets${query}`);
      expect(res.status, query).toBe(400);
      expect((res.body as { code: string }).code).toBe('INVALID_QUERY_PARAMETER');
    }
  });
});

describe('wallet detail, balances and the account sub-list', () => {
  it('serves detail and zero balances per enabled asset; 404 across orgs', async () => {
    const res = await client.post('/api/v1/wallets', { chain: 'tron:nile', accountId }, newKey());
    const wallet = WalletSchema.parse(res.body);
    const detail = await client.get(`/api/v1/wallets/${wallet.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual(res.body);
    const balances = BalanceListSchema.parse(
      (await client.get(`/api/v1/wallets/${wallet.id}/balances`)).body,
    );
    expect(balances.items.map((b) => b.asset).sort()).toEqual(['TRX', 'USDT']);
    expect(balances.items.every((b) => b.postedBalance === '0' && b.availableBalance === '0')).toBe(
      true,
    );
    const sub = (await client.get(`/api/v1/ledger/accounts/${accountId}/wallets?limit=200`))
      .body as WalletPage;
    expect(sub.items.map((w) => w.id)).toContain(wallet.id);
    const accountDetail = await client.get(`/api/v1/ledger/accounts/${accountId}`);
    expect((accountDetail.body as { walletCount: number }).walletCount).toBe(sub.items.length);

    const stranger = await createOrgClient(harness, ['wallets:read']);
    expect((await stranger.get(`/api/v1/wallets/${wallet.id}`)).status).toBe(404);
    expect((await stranger.get(`/api/v1/wallets/${wallet.id}/balances`)).status).toBe(404);
  });
});

describe('restart', () => {
  it('keeps accounts, wallets, MPC state and idempotency records across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-restart-'));
    const open = async (): Promise<Harness> => {
      const sandbox = createSandbox({ dataDir, adminToken: ADMIN_TOKEN, blockMs: 20 });
      const { baseUrl } = await sandbox.listen(0);
      return {
        sandbox,
        baseUrl,
        admin: async (method, path, body) => {
          const res = await fetch(`${baseUrl}${path}`, {
            method,
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
          return { status: res.status, body: await res.json(), headers: res.headers };
        },
        close: () => sandbox.stop(),
      };
    };
    try {
      const first = await open();
      const before = await createOrgClient(first, SCOPES);
      await makeReady(first, before);
      const acc = await newAccount(before, 'Durable');
      const key = newKey('durable');
      const created = await before.post(
        '/api/v1/wallets',
        { chain: 'tron:nile', accountId: acc },
        key,
      );
      expect(created.status).toBe(201);
      await first.close();

      const second = await open();
      const after = { ...before, call: rebase(before, second.baseUrl) };
      const replay = await after.call(
        'POST',
        '/api/v1/wallets',
        { chain: 'tron:nile', accountId: acc },
        {
          'x-idempotency-key': key,
        },
      );
      expect(replay.status).toBe(201);
      expect(replay.body).toEqual(created.body);
      const id = (created.body as { id: string }).id;
      expect((await after.call('GET', `/api/v1/wallets/${id}`)).body).toEqual(created.body);
      const status = await after.call('GET', '/api/v1/mpc/status');
      expect(status.body).toMatchObject({ keyStatus: 'ACTIVE', coSigner: { status: 'ONLINE' } });
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** The same signed client, pointed at another base URL (the restarted server). */
function rebase(client: OrgClient, baseUrl: string): OrgClient['call'] {
  return async (method, target, body, headers = {}) => {
    const bytes =
      body === undefined ? null : utf8Bytes(typeof body === 'string' ? body : JSON.stringify(body));
    const signed = signRestRequest(client.signer, { method, target, body: bytes });
    const res = await fetch(`${baseUrl}${target}`, {
      method,
      headers: {
        ...signed,
        ...(bytes === null ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(bytes === null ? {} : { body: bytes }),
    });
    const text = await res.text();
    return {
      status: res.status,
      body: text ? (JSON.parse(text) as unknown) : null,
      headers: res.headers,
    };
  };
}
