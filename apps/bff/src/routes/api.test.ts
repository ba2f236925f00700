import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations } from '../services/operations';
import { hasRole, ROLES, type Role } from '@settlement/protocol';
import {
  SIGNATURE_PATTERN,
  secretsOf,
  startBff,
  startSandbox,
  transcript,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from '../test-support/harness';

let sandbox: SandboxProcess;
let bff: BffInstance;
const browsers = {} as Record<Role, Browser>;

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff({ sandbox });
  for (const role of ROLES) browsers[role] = await bff.login(role);
}, 60_000);

afterAll(async () => {
  await bff.close();
  await sandbox.stop();
});

type RequestLogRow = {
  operation: string;
  operator: string;
  path: string;
  status: number | null;
  request_id_sent: string;
  upstream_request_id: string | null;
  correlation_id: string | null;
  idempotency_key: string | null;
};

async function lastRequestLog(): Promise<RequestLogRow | undefined> {
  await bff.bff.services.logs.flush();
  return bff.db.prepare('SELECT * FROM request_log ORDER BY id DESC LIMIT 1').get() as
    RequestLogRow | undefined;
}

/** A concrete path for an operation pattern (ids filled in). */
function concretePath(source: string): string {
  return source
    .replace(/^\^/, '')
    .replace(/\$$/, '')
    .replaceAll('\\/', '/')
    .replaceAll('([^/?#]+)', 'some-id');
}

describe('role matrix', () => {
  it('refuses every operation below its role with 403 before any upstream call, and forwards it otherwise', async () => {
    for (const operation of listOperations()) {
      const path = `/bff${concretePath(operation.pattern.source)}`;
      for (const role of ROLES) {
        const before = await bff.upstreamCalls();
        const response = await bff.call(operation.method, path, {
          browser: browsers[role],
          ...(operation.method === 'POST'
            ? { body: operation.name === 'mpc.initialize' ? {} : { probe: true } }
            : {}),
          headers: { 'x-operation-id': `matrix-${operation.name}-${role}` },
        });
        const label = `${operation.name} as ${role}: ${response.status} ${response.text}`;
        if (hasRole(role, operation.role) && operation.name === 'transactions.create') {
          // The withdrawal policy judges the body before any upstream call; a probe is no withdrawal.
          expect(response.json, label).toMatchObject({ code: 'VALIDATION_ERROR' });
          expect(await bff.upstreamCalls(), label).toBe(before);
        } else if (hasRole(role, operation.role)) {
          expect(await bff.upstreamCalls(), label).toBeGreaterThan(before);
          expect((await lastRequestLog())?.operation, label).toBe(operation.name);
          expect(response.json, label).not.toMatchObject({ code: 'FORBIDDEN' });
        } else {
          expect(response.status, label).toBe(403);
          expect(response.json, label).toMatchObject({ code: 'FORBIDDEN', retryable: false });
          expect(await bff.upstreamCalls(), label).toBe(before);
        }
      }
    }
  });

  it('requires a session for the API (401) and does not expose the Co-Signer endpoints', async () => {
    expect((await bff.call('GET', '/bff/api/v1/assets')).status).toBe(401);
    const before = await bff.upstreamCalls();
    for (const path of [
      '/bff/api/v1/co-signer/intents/i1/claim',
      '/bff/api/v1/co-signer/sessions/s1/messages',
    ]) {
      const response = await bff.call('POST', path, { browser: browsers.admin, body: {} });
      expect(response.status).toBe(404);
      expect(response.json).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    }
    const wrongMethod = await bff.call('DELETE', '/bff/api/v1/wallets', {
      browser: browsers.admin,
    });
    expect(wrongMethod.status).toBe(404);
    expect(await bff.upstreamCalls()).toBe(before);
  });
});

describe('signed proxy', () => {
  it('signs calls the sandbox accepts and answers with the upstream status, bytes and requestId', async () => {
    const { auditBefore } = bff.db
      .prepare('SELECT COALESCE(MAX(id), 0) AS auditBefore FROM audit_log')
      .get() as {
      auditBefore: number;
    };
    const created = await bff.call('POST', '/bff/api/v1/ledger/accounts', {
      browser: browsers.treasury,
      body: { name: 'Proxy Co', externalId: 'proxy-1' },
    });
    expect(created.status).toBe(201);
    const log = await lastRequestLog();
    expect(created.headers['x-request-id']).toBe(log?.upstream_request_id);
    expect(log?.correlation_id).toBeTruthy();
    expect(created.headers['x-correlation-id']).toBe(log?.correlation_id);
    const id = (created.json as { id: string }).id;
    const detail = await bff.call('GET', `/bff/api/v1/ledger/accounts/${id}`, {
      browser: browsers.support,
    });
    expect(detail.status).toBe(200);
    expect(detail.json).toMatchObject({ id, name: 'Proxy Co', walletCount: 0 });
    const conflict = await bff.call('POST', '/bff/api/v1/ledger/accounts', {
      browser: browsers.treasury,
      body: { name: 'Again', externalId: 'proxy-1' },
    });
    expect(conflict.status).toBe(409);
    expect(conflict.json).toMatchObject({ code: 'ACCOUNT_EXTERNAL_ID_CONFLICT' });
    expect(conflict.headers['x-request-id']).toBe(
      (conflict.json as { requestId: string }).requestId,
    );
    const audit = bff.db
      .prepare(
        "SELECT outcome, operator, resource_id FROM audit_log WHERE action = 'account.create' AND id > ? ORDER BY id",
      )
      .all(auditBefore);
    expect(audit).toEqual([
      { outcome: 'succeeded', operator: 'treasury', resource_id: id },
      { outcome: 'failed 409', operator: 'treasury', resource_id: null },
    ]);
  });

  it('passes the query string upstream verbatim and follows cursors untouched', async () => {
    for (const name of ['Page A', 'Page B', 'Page C']) {
      await bff.call('POST', '/bff/api/v1/ledger/accounts', {
        browser: browsers.treasury,
        body: { name },
      });
    }
    const odd = "/api/v1/ledger/accounts?search=Pa%7Ege'x%20y&limit=1";
    const verbatim = await bff.call('GET', `/bff${odd}`, { browser: browsers.support });
    expect(verbatim.status).toBe(200);
    expect((await lastRequestLog())?.path).toBe(odd);

    const names: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const page = await bff.call(
        'GET',
        `/bff/api/v1/ledger/accounts?search=page&limit=1${query}`,
        {
          browser: browsers.support,
        },
      );
      expect(page.status).toBe(200);
      const body = page.json as { items: { name: string }[]; nextCursor: string | null };
      names.push(...body.items.map((item) => item.name));
      cursor = body.nextCursor;
    } while (cursor !== null && names.length < 10);
    expect(names.sort()).toEqual(['Page A', 'Page B', 'Page C']);

    const edited = await bff.call(
      'GET',
      '/bff/api/v1/ledger/accounts?limit=1&cursor=bm90LWEtY3Vyc29y',
      {
        browser: browsers.support,
      },
    );
    expect(edited.status).toBe(400);
    expect(edited.json).toMatchObject({ code: 'INVALID_QUERY_PARAMETER' });
  });

  it('refuses unknown, repeated or malformed query parameters without calling upstream', async () => {
    const before = await bff.upstreamCalls();
    for (const query of ['?bogus=1', '?limit=1&limit=2', '?search=%zz', '?search=a"b']) {
      const response = await bff.call('GET', `/bff/api/v1/ledger/accounts${query}`, {
        browser: browsers.support,
      });
      expect(response.status, query).toBe(400);
      expect(response.json).toMatchObject({ code: 'INVALID_QUERY_PARAMETER' });
    }
    expect(await bff.upstreamCalls()).toBe(before);
  });

  it('needs X-Operation-Id on idempotent operations', async () => {
    const before = await bff.upstreamCalls();
    const response = await bff.call('POST', '/bff/api/v1/wallets', {
      browser: browsers.treasury,
      body: { chain: 'tron:nile', accountId: 'x' },
    });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'IDEMPOTENCY_KEY_REQUIRED' });
    expect(await bff.upstreamCalls()).toBe(before);
  });
});

describe('health and sandbox tools', () => {
  it('reports liveness, readiness and the Co-Signer health as the admin switches it', async () => {
    expect((await bff.call('GET', '/bff/healthz')).json).toEqual({ ok: true });
    expect((await bff.call('GET', '/bff/readyz')).status).toBe(200);
    const offline = await bff.call('GET', '/bff/co-signer/health', { browser: browsers.support });
    expect(offline.json).toMatchObject({ reachable: true, ok: false, httpStatus: 503 });

    const refused = await bff.call('PUT', '/bff/sandbox/co-signer', {
      browser: browsers.treasury,
      body: { online: true },
    });
    expect(refused.status).toBe(403);
    const switched = await bff.call('PUT', '/bff/sandbox/co-signer', {
      browser: browsers.admin,
      body: { online: true },
    });
    expect(switched.status).toBe(200);
    const online = await bff.call('GET', '/bff/co-signer/health', { browser: browsers.support });
    expect(online.json).toMatchObject({
      reachable: true,
      ok: true,
      httpStatus: 200,
      checkedAt: expect.any(String),
    });
    const bad = await bff.call('PUT', '/bff/sandbox/co-signer', {
      browser: browsers.admin,
      body: { online: 'yes' },
    });
    expect(bad.status).toBe(400);
  });

  it('is not ready when the upstream is unreachable, and hides sandbox tools for a remote upstream', async () => {
    const remote = await startBff({
      sandbox,
      upstreamUrl: 'http://127.0.0.1:1',
      // Passkeys are required by default for a remote upstream; this case is about the tools.
      env: { SANDBOX_ADMIN_TOKEN: '', REQUIRE_PASSKEYS: 'false' },
    });
    try {
      const ready = await remote.call('GET', '/bff/readyz');
      expect(ready.status, ready.text + remote.logLines.join('\n')).toBe(503);
      expect(ready.json).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', retryable: true });
      const admin = await remote.login('admin');
      const tools = await remote.call('PUT', '/bff/sandbox/co-signer', {
        browser: admin,
        body: { online: true },
      });
      expect(tools.status).toBe(404);
      const me = await remote.call('GET', '/bff/auth/me', { browser: admin });
      expect(me.json).toMatchObject({ upstream: { kind: 'remote' } });
      const list = await remote.call('GET', '/bff/api/v1/assets', { browser: admin });
      expect(list.status).toBe(503);
      expect(list.json).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    } finally {
      await remote.close();
    }
  });
});

describe('static console', () => {
  it('caches hashed assets for a year, never caches index.html, and falls back to it for SPA routes', async () => {
    const asset = await bff.call('GET', '/assets/app-3f2a1b.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const spa = await bff.call('GET', '/wallets/123');
    expect(spa.status).toBe(200);
    expect(spa.headers['cache-control']).toBe('no-cache');
    expect(spa.text).toContain('id="root"');
    expect((await bff.call('GET', '/assets/missing.js')).status).toBe(404);
    const unknown = await bff.call('GET', '/bff/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });
});

describe('secrets', () => {
  it('never reveal seeds, passwords or signatures in any response body or log line of this suite', () => {
    const secrets = secretsOf(bff);
    for (const text of [...transcript, ...bff.logLines]) {
      for (const secret of secrets) expect(text.includes(secret)).toBe(false);
      expect(SIGNATURE_PATTERN.test(text)).toBe(false);
      expect(text.includes(sandbox.adminToken)).toBe(false);
    }
  });
});
