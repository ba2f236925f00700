import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/query-client';
import { startApiTestServer, type TestServer } from '../../test/test-server';
import { startSessionProbe } from '../session-probe';

const html = readFileSync(resolve(import.meta.dirname, '../../../index.html'), 'utf8');

/** index.html's `<link rel="preload" as="fetch">`: href -> crossorigin attribute. */
function fetchPreloads(): Map<string, string | null> {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return new Map(
    [...doc.querySelectorAll('link[rel="preload"][as="fetch"]')].map((link) => [
      link.getAttribute('href') ?? '',
      link.getAttribute('crossorigin'),
    ]),
  );
}

let server: TestServer;
beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/auth/me', () => ({
    body: {
      operator: { username: 'treasury', role: 'treasury' },
      csrfToken: 'csrf-1',
      upstream: { kind: 'sandbox' },
      organization: { id: 'org_test' },
    },
  }));
});
afterAll(() => server.close());

describe('index.html', () => {
  it('preloads the session probe exactly as the probe fetches it, and nothing else', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    try {
      startSessionProbe(createQueryClient());
      await expect.poll(() => server.requests.length).toBeGreaterThan(0);
      const [input, init] = fetchSpy.mock.calls[0] ?? [];
      const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
      const probe = new URL(url ?? '', 'http://console.test');
      // Chromium hands a preloaded response over only for the same URL and credentials mode:
      // crossorigin="anonymous" is credentials 'same-origin', what the API client sends.
      expect(probe.pathname).toBe('/bff/auth/me');
      expect(init?.credentials).toBe('same-origin');
      expect(init?.method ?? 'GET').toBe('GET');
      // Signed out, any other preload (the overview, the config) would stay unused, and its
      // 401 could be taken by the same request right after signing in.
      expect([...fetchPreloads()]).toEqual([['/bff/auth/me', 'anonymous']]);
    } finally {
      fetchSpy.mockRestore();
    }
  });
});
