import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessionKeys } from '../features/session/api/keys';
import { createQueryClient } from '../lib/query-client';
import { envelope, startApiTestServer } from '../test/test-server';
import type { TestServer } from '../test/test-server';
import { startSessionProbe } from './session-probe';

const session = {
  operator: { username: 'treasury', role: 'treasury' },
  csrfToken: 'csrf-1',
  upstream: { kind: 'sandbox' },
  organization: { id: 'org_test' },
};

let server: TestServer;
let isSignedIn = true;
beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/auth/me', () =>
    isSignedIn ? { body: session } : envelope('UNAUTHENTICATED', 401, 'r-401'),
  );
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const paths = () => server.requests.map((r) => r.path);

describe('startSessionProbe', () => {
  it('signed in, starts what the shell reads before any page has rendered', async () => {
    isSignedIn = true;
    startSessionProbe(createQueryClient());
    await expect.poll(paths).toEqual(['/bff/auth/me', '/bff/overview', '/bff/config']);
  });

  it('signed out, asks for nothing else (each would answer 401 and end the session)', async () => {
    isSignedIn = false;
    const client = createQueryClient();
    startSessionProbe(client);
    await expect.poll(() => client.getQueryState(sessionKeys.me())?.status).toBe('success');
    expect(paths()).toEqual(['/bff/auth/me']);
  });
});
