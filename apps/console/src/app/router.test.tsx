import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { assetCatalogQuery } from '../features/assets/api/asset-catalog';
import { mpcStatusQuery } from '../features/mpc/api/mpc-status';
import { meQuery } from '../features/session/api/me';
import { setApiOrigin } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';
import { envelope, startTestServer, type TestServer } from '../test/test-server';
import { createAppRouter } from './router';

const session = {
  operator: { username: 'treasury', role: 'treasury' },
  csrfToken: 'csrf-1',
  upstream: { kind: 'sandbox' },
  organization: { id: 'org_test' },
};
let server: TestServer;
let isSignedIn = true;
beforeAll(async () => {
  server = await startTestServer();
  setApiOrigin(server.origin);
  server.route('GET', '/bff/auth/me', () =>
    isSignedIn ? { body: session } : envelope('UNAUTHENTICATED', 401, 'r-401'),
  );
  server.route('GET', '/bff/api/v1/mpc/status', () => ({ status: 503, body: {} }));
  server.route('GET', '/bff/api/v1/assets', () => ({ status: 503, body: {} }));
});
afterAll(async () => {
  setApiOrigin(null);
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
});

const paths = () => server.requests.map((r) => r.path);

describe('the overview route', () => {
  it('asks for what its panels wait for as it matches, before its page has loaded', async () => {
    isSignedIn = true;
    window.history.pushState({}, '', '/');
    // The router alone, never rendered: the requests come from matching the route.
    const router = createAppRouter(createQueryClient());
    await vi.waitFor(() => {
      expect(paths()).toEqual(
        expect.arrayContaining(['/bff/auth/me', '/bff/api/v1/mpc/status', '/bff/api/v1/assets']),
      );
    });
    router.dispose();
  });

  it('asks for nothing else while nobody is signed in (a 401 would end the session)', async () => {
    isSignedIn = false;
    window.history.pushState({}, '', '/');
    const client = createQueryClient();
    const router = createAppRouter(client);
    // The probe's answer (nobody) is in; the loader's continuation has run by the next tick.
    await vi.waitFor(() => {
      expect(client.getQueryState(meQuery().queryKey)?.status).toBe('success');
    });
    await client.query({ ...meQuery(), staleTime: 'static' });
    // query() would have put the queries in the cache synchronously.
    expect(client.getQueryCache().find({ queryKey: mpcStatusQuery().queryKey })).toBeUndefined();
    expect(client.getQueryCache().find({ queryKey: assetCatalogQuery().queryKey })).toBeUndefined();
    expect(paths()).toEqual(['/bff/auth/me']);
    router.dispose();
  });
});
