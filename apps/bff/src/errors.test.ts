import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettlementApiError } from '@settlement/client';
import { ErrorEnvelopeSchema } from '@settlement/protocol';
import { HttpError, errorMiddleware, requestIdMiddleware } from './errors';

const upstream = (code: string, status: number) =>
  new SettlementApiError({
    code,
    status,
    message: `upstream says ${code}`,
    requestId: 'req_up',
    retryable: status >= 500,
  });

const app = express();
app.use(requestIdMiddleware);
app.get('/outage', () => {
  throw upstream('UPSTREAM_UNAVAILABLE', 503);
});
app.get('/missing', () => {
  throw upstream('RESOURCE_NOT_FOUND', 404);
});
app.get('/odd', () => {
  throw upstream('SOMETHING_NEW', 500);
});
app.use(errorMiddleware(pino({ level: 'silent' })));

let base = '';
let close = () => {};
beforeAll(async () => {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  close = () => server.close();
});
afterAll(() => {
  close();
});

async function get(path: string) {
  const response = await request(`${base}${path}`);
  return {
    status: response.statusCode,
    body: ErrorEnvelopeSchema.parse(await response.body.json()),
  };
}

describe('errorMiddleware with an upstream error a route let through', () => {
  it('keeps an upstream outage a retryable 503, never an internal error', async () => {
    const { status, body } = await get('/outage');
    expect(status).toBe(503);
    expect(body).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', retryable: true });
  });

  it('keeps an upstream 404 a 404 with the upstream message', async () => {
    const { status, body } = await get('/missing');
    expect(status).toBe(404);
    expect(body).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      message: 'upstream says RESOURCE_NOT_FOUND',
    });
  });

  it('answers a code the table does not know as the upstream failing', async () => {
    const { status, body } = await get('/odd');
    expect(status).toBe(503);
    expect(body.code).toBe('UPSTREAM_UNAVAILABLE');
  });
});

describe('HttpError retryable', () => {
  it("is the code's flag unless the instance says otherwise, and the envelope carries it", async () => {
    const app2 = express();
    app2.use(requestIdMiddleware);
    app2.get('/transient', () => {
      throw new HttpError('IDEMPOTENCY_CONFLICT', 'Still running. Retry.', [], {}, true);
    });
    app2.get('/changed', () => {
      throw new HttpError('IDEMPOTENCY_CONFLICT', 'A different request.');
    });
    app2.use(errorMiddleware(pino({ level: 'silent' })));
    const server = app2.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const at = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
      const transient = await request(`${at}/transient`);
      expect(ErrorEnvelopeSchema.parse(await transient.body.json())).toMatchObject({
        code: 'IDEMPOTENCY_CONFLICT',
        retryable: true,
      });
      const changed = await request(`${at}/changed`);
      expect(ErrorEnvelopeSchema.parse(await changed.body.json())).toMatchObject({
        code: 'IDEMPOTENCY_CONFLICT',
        retryable: false,
      });
    } finally {
      server.close();
    }
  });
});
