import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { errorMiddleware, HttpError, requestIdMiddleware } from './errors';
import { createLogger } from './logger';

describe('error middleware', () => {
  it('hides an unexpected error behind a retryable 500 INTERNAL_ERROR with the request id', async () => {
    const app = express();
    app.use(requestIdMiddleware);
    app.get('/boom', () => {
      throw new Error('database password is hunter2');
    });
    app.get('/known', () => {
      throw new HttpError('RESOURCE_NOT_FOUND', 'No such thing.', [{ field: 'id' }]);
    });
    app.use(errorMiddleware(createLogger('silent')));
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const boom = await fetch(`${base}/boom`);
      const body = (await boom.json()) as Record<string, unknown>;
      expect(boom.status).toBe(500);
      expect(body).toMatchObject({ code: 'INTERNAL_ERROR', retryable: true, details: [] });
      expect(body.requestId).toBe(boom.headers.get('x-request-id'));
      expect(JSON.stringify(body)).not.toContain('hunter2');

      const known = await fetch(`${base}/known`, { headers: { 'x-request-id': 'req-1' } });
      expect(known.status).toBe(404);
      expect(await known.json()).toEqual({
        code: 'RESOURCE_NOT_FOUND',
        message: 'No such thing.',
        details: [{ field: 'id' }],
        requestId: 'req-1',
        retryable: false,
      });
    } finally {
      server.close();
    }
  });
});
