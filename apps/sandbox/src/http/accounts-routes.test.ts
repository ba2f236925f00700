import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountDetailSchema, AccountSchema } from '@settlement/protocol';
import {
  createOrgClient,
  events,
  startHarness,
  type Harness,
  type OrgClient,
} from '../test-support/sandbox-harness';

let harness: Harness;
let client: OrgClient;

beforeAll(async () => {
  harness = await startHarness();
  client = await createOrgClient(harness, [
    'wallets:create',
    'wallets:read',
    'accounts:read',
    'transactions:read',
  ]);
});
afterAll(async () => {
  await harness.close();
});

type Page = {
  items: { id: string; name: string; externalId: string | null }[];
  nextCursor: string | null;
};

async function create(body: unknown) {
  return client.call('POST', '/api/v1/ledger/accounts', body);
}

describe('POST /api/v1/ledger/accounts', () => {
  it('creates an account (201) and emits account.created with the request id, in the same commit', async () => {
    const res = await create({
      name: 'Merchant A',
      externalId: 'merchant-a',
      metadata: { tier: 1 },
    });
    expect(res.status).toBe(201);
    const account = AccountSchema.parse(res.body);
    expect(account).toMatchObject({
      orgId: client.orgId,
      name: 'Merchant A',
      externalId: 'merchant-a',
      metadata: { tier: 1 },
    });
    const event = events(harness, client.orgId).find((e) => e.data.accountId === account.id);
    expect(event).toMatchObject({
      type: 'account.created',
      correlationId: res.headers.get('x-correlation-id'),
      occurredAt: account.createdAt,
      data: {
        accountId: account.id,
        orgId: client.orgId,
        name: 'Merchant A',
        externalId: 'merchant-a',
        createdAt: account.createdAt,
        requestId: res.headers.get('x-request-id'),
        idempotencyKey: null,
      },
    });
  });

  it('refuses a duplicate externalId with 409 ACCOUNT_EXTERNAL_ID_CONFLICT and emits nothing', async () => {
    await create({ name: 'First', externalId: 'dup-1' });
    const before = events(harness, client.orgId).length;
    const res = await create({ name: 'Second', externalId: 'dup-1' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'ACCOUNT_EXTERNAL_ID_CONFLICT', retryable: false });
    expect(events(harness, client.orgId)).toHaveLength(before);
  });

  it('refuses metadata over 16 KiB with 422 and accepts exactly 16 KiB', async () => {
    const overhead = JSON.stringify({ k: '' }).length;
    const exact = { k: 'x'.repeat(16 * 1024 - overhead) };
    expect((await create({ name: 'Exact', metadata: exact })).status).toBe(201);
    const over = await create({ name: 'Over', metadata: { k: 'x'.repeat(16 * 1024) } });
    expect(over.status).toBe(422);
    expect((over.body as { code: string }).code).toBe('ACCOUNT_METADATA_TOO_LARGE');
  });

  it('answers missing or ill-typed fields with 400 VALIDATION_ERROR naming the field', async () => {
    for (const body of [
      {},
      { name: '' },
      { name: 42 },
      { name: 'x', externalId: '' },
      { name: 'x', externalId: 'e'.repeat(129) },
      { name: 'x', metadata: [1] },
      [],
    ]) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.body as { code: string }).code).toBe('VALIDATION_ERROR');
    }
    const named = await create({ name: 7 });
    expect((named.body as { details: { field: string }[] }).details[0]?.field).toBe('name');
    const empty = await client.call('POST', '/api/v1/ledger/accounts');
    expect(empty.status).toBe(400);
  });

  it('needs the wallets:create scope', async () => {
    const reader = await createOrgClient(harness, ['accounts:read'], client.orgId);
    const res = await reader.call('POST', '/api/v1/ledger/accounts', { name: 'No' });
    expect(res.status).toBe(403);
  });
});

describe('GET /api/v1/ledger/accounts', () => {
  it('pages newest first with an opaque cursor, stable under concurrent inserts', async () => {
    const org = await createOrgClient(harness, ['wallets:create', 'accounts:read']);
    for (let i = 0; i < 5; i += 1) {
      await org.call('POST', '/api/v1/ledger/accounts', { name: `Page ${i}` });
    }
    const first = (await org.get('/api/v1/ledger/accounts?limit=2')).body as Page;
    expect(first.items.map((a) => a.name)).toEqual(['Page 4', 'Page 3']);
    expect(first.nextCursor).toEqual(expect.any(String));
    await org.call('POST', '/api/v1/ledger/accounts', { name: 'Inserted meanwhile' });
    const second = (
      await org.get(
        `/api/v1/ledger/accounts?limit=2&cursor=${encodeURIComponent(first.nextCursor ?? '')}`,
      )
    ).body as Page;
    expect(second.items.map((a) => a.name)).toEqual(['Page 2', 'Page 1']);
    const third = (
      await org.get(
        `/api/v1/ledger/accounts?limit=2&cursor=${encodeURIComponent(second.nextCursor ?? '')}`,
      )
    ).body as Page;
    expect(third.items.map((a) => a.name)).toEqual(['Page 0']);
    expect(third.nextCursor).toBeNull();
  });

  it('filters by search (case-insensitive contains) and externalId', async () => {
    const org = await createOrgClient(harness, ['wallets:create', 'accounts:read']);
    await org.call('POST', '/api/v1/ledger/accounts', { name: 'Blue Whale Ltd', externalId: 'bw' });
    await org.call('POST', '/api/v1/ledger/accounts', { name: 'Red Fox', externalId: 'rf' });
    const search = (await org.get('/api/v1/ledger/accounts?search=WHALE')).body as Page;
    expect(search.items.map((a) => a.name)).toEqual(['Blue Whale Ltd']);
    const byExternal = (await org.get('/api/v1/ledger/accounts?externalId=rf')).body as Page;
    expect(byExternal.items.map((a) => a.name)).toEqual(['Red Fox']);
    const none = (await org.get('/api/v1/ledger/accounts?externalId=zz')).body as Page;
    expect(none.items).toEqual([]);
  });

  it('rejects bad limits, tampered, foreign and filter-mismatched cursors with 400 INVALID_QUERY_PARAMETER', async () => {
    const org = await createOrgClient(harness, ['wallets:create', 'accounts:read']);
    for (let i = 0; i < 3; i += 1) {
      await org.call('POST', '/api/v1/ledger/accounts', { name: `C${i}` });
    }
    const page = (await org.get('/api/v1/ledger/accounts?limit=1&search=c')).body as Page;
    const cursor = page.nextCursor ?? '';
    const [payload = '', mac = ''] = cursor.split('.');
    const flipped = `${payload.slice(0, -1)}${payload.endsWith('A') ? 'B' : 'A'}.${mac}`;
    const other = await createOrgClient(harness, ['accounts:read']);
    const cases: [OrgClient, string][] = [
      [org, '/api/v1/ledger/accounts?limit=0'],
      [org, '/api/v1/ledger/accounts?limit=201'],
      [org, '/api/v1/ledger/accounts?limit=abc'],
      [org, '/api/v1/ledger/accounts?limit=1&limit=2'],
      [org, `/api/v1/ledger/accounts?search=c&cursor=${encodeURIComponent(flipped)}`],
      [org, `/api/v1/ledger/accounts?search=c&cursor=garbage`],
      [org, `/api/v1/ledger/accounts?search=d&cursor=${encodeURIComponent(cursor)}`],
      [other, `/api/v1/ledger/accounts?search=c&cursor=${encodeURIComponent(cursor)}`],
    ];
    for (const [who, target] of cases) {
      const res = await who.get(target);
      expect(res.status, target).toBe(400);
      expect((res.body as { code: string }).code).toBe('INVALID_QUERY_PARAMETER');
    }
    const ok = await org.get(
      `/api/v1/ledger/accounts?search=c&limit=5&cursor=${encodeURIComponent(cursor)}`,
    );
    expect(ok.status).toBe(200);
    expect((await org.get('/api/v1/ledger/accounts?limit=200')).status).toBe(200);
  });

  it('ignores the lang parameter', async () => {
    const res = await client.get('/api/v1/ledger/accounts?lang=de&limit=1');
    expect(res.status).toBe(200);
  });
});

describe('GET /api/v1/ledger/accounts/{id} and sub-lists', () => {
  it('returns the detail with walletCount and balances, 404 for another org', async () => {
    const created = await create({ name: 'Detail' });
    const id = (created.body as { id: string }).id;
    const res = await client.get(`/api/v1/ledger/accounts/${id}`);
    expect(res.status).toBe(200);
    expect(AccountDetailSchema.parse(res.body)).toMatchObject({ id, walletCount: 0, balances: [] });
    const stranger = await createOrgClient(harness, [
      'accounts:read',
      'wallets:read',
      'transactions:read',
    ]);
    for (const path of ['', '/wallets', '/balances', '/transactions']) {
      const foreign = await stranger.get(`/api/v1/ledger/accounts/${id}${path}`);
      expect(foreign.status, path).toBe(404);
      expect((foreign.body as { code: string }).code).toBe('RESOURCE_NOT_FOUND');
    }
    expect((await client.get('/api/v1/ledger/accounts/missing')).status).toBe(404);
  });

  it('serves the empty sub-lists of a new account', async () => {
    const created = await create({ name: 'Subs' });
    const id = (created.body as { id: string }).id;
    expect((await client.get(`/api/v1/ledger/accounts/${id}/wallets`)).body).toEqual({
      items: [],
      nextCursor: null,
    });
    expect((await client.get(`/api/v1/ledger/accounts/${id}/balances`)).body).toEqual({
      items: [],
    });
    expect((await client.get(`/api/v1/ledger/accounts/${id}/transactions`)).body).toEqual({
      items: [],
      nextCursor: null,
    });
    expect((await client.get(`/api/v1/ledger/accounts/${id}/wallets?accountId=${id}`)).status).toBe(
      400,
    );
  });
});
