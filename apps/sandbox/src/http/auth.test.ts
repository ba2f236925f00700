import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utf8Bytes } from '@settlement/protocol';
import {
  createNobleSigner,
  decodeKey32,
  generateSeed,
  signRestRequest,
  wsCanonicalString,
} from '@settlement/protocol/signing';
import { createSandbox } from '../app';
import {
  ADMIN_TOKEN,
  createOrgClient,
  startHarness,
  type Harness,
  type OrgClient,
} from '../test-support/sandbox-harness';

let harness: Harness;
let client: OrgClient;

beforeAll(async () => {
  harness = await startHarness();
  client = await createOrgClient(harness, ['accounts:read', 'wallets:create']);
});
afterAll(async () => {
  await harness.close();
});

async function raw(
  target: string,
  init: { method?: string; headers?: Record<string, string>; body?: Uint8Array | string },
) {
  const response = await fetch(`${harness.baseUrl}${target}`, {
    method: init.method ?? 'GET',
    headers: init.headers ?? {},
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

function signed(
  method: string,
  target: string,
  body: Uint8Array | null,
  clock: { now?: number; nonce?: string } = {},
) {
  return signRestRequest(client.signer, { method, target, body }, clock) as Record<string, string>;
}

describe('REST authentication', () => {
  it('accepts a correctly signed GET and answers with x-request-id', async () => {
    const res = await raw('/api/v1/ledger/accounts', {
      headers: signed('GET', '/api/v1/ledger/accounts', null),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('x-correlation-id')).toBeTruthy();
  });

  it('rejects a request without signature headers with 401 UNAUTHENTICATED in the envelope', async () => {
    const res = await raw('/api/v1/ledger/accounts', { headers: { 'x-request-id': 'trace-123' } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      code: 'UNAUTHENTICATED',
      details: [],
      requestId: 'trace-123',
      retryable: false,
    });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
  });

  it('replaces an invalid incoming x-request-id with a generated one', async () => {
    const res = await raw('/api/v1/ledger/accounts', { headers: { 'x-request-id': 'a b' } });
    expect(res.headers.get('x-request-id')).not.toBe('a b');
    expect(res.body?.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('rejects an unknown key id with 401', async () => {
    const headers = signed('GET', '/api/v1/ledger/accounts', null);
    headers['X-Api-Key-Id'] = 'key_unknown';
    const res = await raw('/api/v1/ledger/accounts', { headers });
    expect(res.status).toBe(401);
    expect(res.body?.code).toBe('UNAUTHENTICATED');
  });

  it('rejects timestamps more than 300 s away and accepts ones just inside', async () => {
    const old = await raw('/api/v1/ledger/accounts', {
      headers: signed('GET', '/api/v1/ledger/accounts', null, { now: Date.now() - 301_000 }),
    });
    expect(old.status).toBe(401);
    // 302 s: both sides truncate to whole seconds, and the server reads its clock a moment
    // later; at 301 s a second boundary in between left 300 s, which is inside.
    const future = await raw('/api/v1/ledger/accounts', {
      headers: signed('GET', '/api/v1/ledger/accounts', null, { now: Date.now() + 302_000 }),
    });
    expect(future.status).toBe(401);
    const inside = await raw('/api/v1/ledger/accounts', {
      headers: signed('GET', '/api/v1/ledger/accounts', null, { now: Date.now() - 280_000 }),
    });
    expect(inside.status).toBe(200);
  });

  it('refuses a reused nonce with 401', async () => {
    const nonce = `n-${Date.now()}`;
    const first = await raw('/api/v1/ledger/accounts', {
      headers: signed('GET', '/api/v1/ledger/accounts', null, { nonce }),
    });
    expect(first.status).toBe(200);
    const again = await raw('/api/v1/ledger/accounts', {
      headers: signed('GET', '/api/v1/ledger/accounts', null, { nonce }),
    });
    expect(again.status).toBe(401);
    expect(again.body?.message).toMatch(/nonce/i);
  });

  it('refuses nonces that are empty, too long or not visible ASCII', async () => {
    for (const nonce of ['x'.repeat(129), 'has space', 'tab\there']) {
      const res = await raw('/api/v1/ledger/accounts', {
        headers: signed('GET', '/api/v1/ledger/accounts', null, { nonce }),
      });
      expect(res.status, nonce).toBe(401);
    }
  });

  it('verifies over the raw target exactly as sent (no re-encoding)', async () => {
    const target = '/api/v1/ledger/accounts?search=a%20b&limit=5';
    const ok = await raw(target, { headers: signed('GET', target, null) });
    expect(ok.status).toBe(200);
    const reencoded = await raw(target, {
      headers: signed('GET', '/api/v1/ledger/accounts?search=a+b&limit=5', null),
    });
    expect(reencoded.status).toBe(401);
  });

  it('requires X-Api-Body-Hash when body bytes are sent, and it must match', async () => {
    const body = utf8Bytes(JSON.stringify({ name: 'Body hash' }));
    const headers = signed('POST', '/api/v1/ledger/accounts', body);
    const missing: Record<string, string> = { ...headers, 'content-type': 'application/json' };
    delete missing['X-Api-Body-Hash'];
    expect(
      (await raw('/api/v1/ledger/accounts', { method: 'POST', headers: missing, body })).status,
    ).toBe(401);

    const other = utf8Bytes(JSON.stringify({ name: 'Body hasH' }));
    const mismatch = await raw('/api/v1/ledger/accounts', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: other,
    });
    expect(mismatch.status).toBe(401);
    expect(mismatch.body?.message).toMatch(/body/i);

    const good = await raw('/api/v1/ledger/accounts', {
      method: 'POST',
      headers: {
        ...signed('POST', '/api/v1/ledger/accounts', body),
        'content-type': 'application/json',
      },
      body,
    });
    expect(good.status).toBe(201);
  });

  it('hashes the exact bytes: whitespace the client sent is part of the signature', async () => {
    const body = utf8Bytes('{ "name" : "Spaced"  }');
    const res = await raw('/api/v1/ledger/accounts', {
      method: 'POST',
      headers: {
        ...signed('POST', '/api/v1/ledger/accounts', body),
        'content-type': 'application/json',
      },
      body,
    });
    expect(res.status).toBe(201);
    expect(res.body?.name).toBe('Spaced');
  });

  it('rejects a signature by another key, and the four-line WebSocket value on REST', async () => {
    const stranger = createNobleSigner(client.signer.keyId, generateSeed());
    const res = await raw('/api/v1/ledger/accounts', {
      headers: signRestRequest(stranger, {
        method: 'GET',
        target: '/api/v1/ledger/accounts',
        body: null,
      }),
    });
    expect(res.status).toBe(401);

    const headers = signed('GET', '/api/v1/ledger/accounts', null);
    headers['X-Api-Signature'] = client.signer.sign(
      wsCanonicalString({
        timestamp: headers['X-Api-Timestamp'] ?? '',
        nonce: headers['X-Api-Nonce'] ?? '',
      }),
    );
    expect((await raw('/api/v1/ledger/accounts', { headers })).status).toBe(401);
  });

  it('answers 403 FORBIDDEN when the key lacks the scope', async () => {
    const res = await client.get('/api/v1/wallets');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'FORBIDDEN', retryable: false });
  });

  it('answers malformed JSON with 400 VALIDATION_ERROR and an oversize body with 413', async () => {
    const bad = await client.call('POST', '/api/v1/ledger/accounts', '{"name":');
    expect(bad.status).toBe(400);
    expect((bad.body as { code: string }).code).toBe('VALIDATION_ERROR');
    const big = await client.call(
      'POST',
      '/api/v1/ledger/accounts',
      JSON.stringify({ name: 'x', metadata: { blob: 'y'.repeat(1024 * 1024) } }),
    );
    expect(big.status).toBe(413);
    expect((big.body as { code: string }).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers unknown /api/v1 routes with 404 RESOURCE_NOT_FOUND', async () => {
    const res = await client.get('/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect((res.body as { code: string }).code).toBe('RESOURCE_NOT_FOUND');
  });
});

describe('durable nonces', () => {
  it('refuses a nonce replay after a restart on the same data directory', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-nonce-'));
    try {
      const first = createSandbox({ dataDir, adminToken: ADMIN_TOKEN });
      const { baseUrl } = await first.listen(0);
      const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
      const org = (await (
        await fetch(`${baseUrl}/sandbox/orgs`, {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({ name: 'Restart' }),
        })
      ).json()) as { orgId: string };
      const key = (await (
        await fetch(`${baseUrl}/sandbox/orgs/${org.orgId}/api-keys`, {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({ scopes: ['accounts:read'] }),
        })
      ).json()) as { keyId: string; privateKey: string };
      const signer = createNobleSigner(key.keyId, decodeKey32(key.privateKey));
      const headers = signRestRequest(signer, {
        method: 'GET',
        target: '/api/v1/ledger/accounts',
        body: null,
      }) as Record<string, string>;
      expect((await fetch(`${baseUrl}/api/v1/ledger/accounts`, { headers })).status).toBe(200);
      await first.stop();

      const second = createSandbox({ dataDir, adminToken: ADMIN_TOKEN });
      const restarted = await second.listen(0);
      const replay = await fetch(`${restarted.baseUrl}/api/v1/ledger/accounts`, { headers });
      expect(replay.status).toBe(401);
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
