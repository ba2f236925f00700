import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { heldReply, startApiTestServer, type TestServer } from '../test/test-server';
import {
  READ_DEADLINE_MS,
  apiRequest,
  isApiError,
  setApiOrigin,
  setReadDeadlineMs,
} from './api-client';

const DEADLINE_MS = 200;

let server: TestServer;
const hung = heldReply({ body: { late: true } });
beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/hung', hung.handler);
  server.route('POST', '/bff/slow-write', async () => {
    await new Promise((resolve) => setTimeout(resolve, DEADLINE_MS * 2));
    return { body: { done: true } };
  });
  server.route('GET', '/bff/quick', () => ({ body: { quick: true } }));
});
afterAll(async () => {
  hung.release();
  setReadDeadlineMs(READ_DEADLINE_MS);
  await server.close();
});
afterEach(() => {
  setReadDeadlineMs(READ_DEADLINE_MS);
});

async function outcomeOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => error,
  );
}

describe('the read deadline', () => {
  it('gives up a read the server never answers, as an error that says so and took that long', async () => {
    setReadDeadlineMs(DEADLINE_MS);
    const error = await outcomeOf(apiRequest('/bff/hung', z.unknown()));
    expect(isApiError(error)).toBe(true);
    if (!isApiError(error)) return;
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', status: 0, retryable: true });
    expect(error.message).toMatch(/did not answer within 0 s/);
    expect(error.elapsedMs).toBeGreaterThanOrEqual(DEADLINE_MS - 5);
    expect(error.elapsedMs).toBeLessThan(DEADLINE_MS + 2_000);
  });

  it('is 45 s by default, and leaves an answered read and a slow write alone', async () => {
    expect(READ_DEADLINE_MS).toBe(45_000);
    setReadDeadlineMs(DEADLINE_MS);
    expect(await apiRequest('/bff/quick', z.unknown())).toEqual({ quick: true });
    expect(await apiRequest('/bff/slow-write', z.unknown(), { method: 'POST', body: {} })).toEqual({
      done: true,
    });
  });

  it("keeps the caller's own abort an AbortError", async () => {
    setReadDeadlineMs(10_000);
    const controller = new AbortController();
    const pending = outcomeOf(apiRequest('/bff/hung', z.unknown(), { signal: controller.signal }));
    setTimeout(() => {
      controller.abort();
    }, 20);
    const error = await pending;
    expect(isApiError(error)).toBe(false);
    expect((error as DOMException).name).toBe('AbortError');
    const already = new AbortController();
    already.abort();
    const before = await outcomeOf(
      apiRequest('/bff/quick', z.unknown(), { signal: already.signal }),
    );
    expect((before as DOMException).name).toBe('AbortError');
  });
});

describe('a body that stops halfway', () => {
  let stalling: Server;
  beforeAll(async () => {
    stalling = createServer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'access-control-allow-origin': '*',
      });
      res.write('{"items":[');
    });
    await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    stalling.closeAllConnections();
    await new Promise((resolve) => stalling.close(resolve));
  });

  it('is given up by the same deadline', async () => {
    setApiOrigin(`http://127.0.0.1:${String((stalling.address() as AddressInfo).port)}`);
    setReadDeadlineMs(DEADLINE_MS);
    try {
      const error = await outcomeOf(apiRequest('/bff/stalls', z.unknown()));
      expect(error).toMatchObject({ code: 'NETWORK_ERROR' });
    } finally {
      setApiOrigin(server.origin);
    }
  });
});
