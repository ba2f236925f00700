import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { envelope, startApiTestServer } from '../test/test-server';
import type { TestServer } from '../test/test-server';
import { apiRequest, isApiError } from './api-client';

const HELD_MS = 300;

let server: TestServer;
beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/quick', () => envelope('UPSTREAM_UNAVAILABLE', 503, 'req-quick'));
  server.route('GET', '/bff/held', async () => {
    await new Promise((resolve) => setTimeout(resolve, HELD_MS));
    return envelope('UPSTREAM_UNAVAILABLE', 503, 'req-held');
  });
});
afterAll(() => server.close());

async function failureOf(path: string): Promise<unknown> {
  return apiRequest(path, z.unknown()).then(
    () => {
      throw new Error(`${path} answered 2xx`);
    },
    (error: unknown) => error,
  );
}

describe('how long a failed answer took', () => {
  it('is carried by the error, from sending the request to its answer', async () => {
    const held = await failureOf('/bff/held');
    expect(isApiError(held) && held.elapsedMs).toBeGreaterThanOrEqual(HELD_MS - 5);
    const quick = await failureOf('/bff/quick');
    expect(isApiError(quick) && isApiError(held) && quick.elapsedMs < held.elapsedMs).toBe(true);
  });
});
