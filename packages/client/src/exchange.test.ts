import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, errors } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { Cancellation } from './cancellation';
import { exchange, type ExchangeOptions } from './exchange';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server | null = null;
let agent: Agent | null = null;
let received = 0;

async function upstream(handler: Handler): Promise<string> {
  received = 0;
  server = createServer((req, res) => {
    received += 1;
    handler(req, res);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function options(origin: string, extra: Partial<ExchangeOptions> = {}): ExchangeOptions {
  return {
    origin,
    path: '/api/v1/assets?limit=2',
    method: 'GET',
    headers: { accept: 'application/json' },
    body: null,
    headersTimeout: 5_000,
    bodyTimeout: 5_000,
    ...extra,
  };
}

function dispatcher(): Agent {
  agent = new Agent({ keepAliveTimeout: 1_000 });
  return agent;
}

afterEach(async () => {
  await agent?.close();
  agent = null;
  server?.closeAllConnections();
  await new Promise<void>((resolve) => {
    if (server)
      server.close(() => {
        resolve();
      });
    else resolve();
  });
  server = null;
});

describe('exchange', () => {
  it('answers the status, the parsed headers and every byte of a body sent in pieces', async () => {
    const url = await upstream((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-request-id', req.headers['x-request-id'] ?? 'none');
      res.appendHeader('set-cookie', ['a=1', 'b=2']);
      res.write('{"amount":');
      setTimeout(() => {
        res.write('"123456789012345678901234567890",');
        setTimeout(() => res.end('"note":"ünïcode"}'), 5);
      }, 5);
    });
    const answer = await exchange(
      dispatcher(),
      options(url, { headers: { 'x-request-id': 'req_1' } }),
    );
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['x-request-id']).toBe('req_1');
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(Buffer.from(answer.bodyBytes).toString('utf8')).toBe(
      '{"amount":"123456789012345678901234567890","note":"ünïcode"}',
    );
  });

  it('sends the exact body bytes and answers an empty body as zero bytes', async () => {
    let seen = Buffer.alloc(0);
    const url = await upstream((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen = Buffer.concat(chunks);
        res.statusCode = 204;
        res.end();
      });
    });
    const body = new TextEncoder().encode('{"name":"Treasury €"}');
    const answer = await exchange(dispatcher(), options(url, { method: 'POST', body }));
    expect(answer.status).toBe(204);
    expect(answer.bodyBytes.length).toBe(0);
    expect(new Uint8Array(seen)).toEqual(body);
  });

  it('a signal aborted before the call rejects with its reason and sends nothing', async () => {
    const url = await upstream((_req, res) => res.end('{}'));
    const signal = new Cancellation();
    signal.abort(new Error('the browser left'));
    await expect(exchange(dispatcher(), options(url, { signal }))).rejects.toThrow(
      'the browser left',
    );
    expect(received).toBe(0);
    expect(signal.listenerCount('abort')).toBe(0);
  });

  it('an abort while waiting for the answer rejects at once with its reason', async () => {
    const url = await upstream(() => undefined);
    const signal = new AbortController();
    const pending = exchange(dispatcher(), options(url, { signal: signal.signal }));
    await expect.poll(() => received).toBe(1);
    signal.abort(new Error('deadline'));
    await expect(pending).rejects.toThrow('deadline');
  });

  it('an abort in the middle of the body rejects, and stops listening to the signal', async () => {
    const url = await upstream((_req, res) => {
      res.write('{"partial":');
    });
    const signal = new Cancellation();
    const pending = exchange(dispatcher(), options(url, { signal }));
    await expect.poll(() => received).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    signal.abort(new Error('the browser left'));
    await expect(pending).rejects.toThrow('the browser left');
    expect(signal.listenerCount('abort')).toBe(0);
  });

  it('an abort with no reason rejects with undici’s own aborted error', async () => {
    const url = await upstream(() => undefined);
    const signal = new Cancellation();
    const pending = exchange(dispatcher(), options(url, { signal }));
    await expect.poll(() => received).toBe(1);
    signal.abort(undefined);
    await expect(pending).rejects.toBeInstanceOf(errors.RequestAbortedError);
  });

  it('a settled exchange stops listening to its signal', async () => {
    const url = await upstream((_req, res) => res.end('{}'));
    const signal = new Cancellation();
    await exchange(dispatcher(), options(url, { signal }));
    expect(signal.listenerCount('abort')).toBe(0);
  });

  it('headers that never come end in undici’s headers timeout', async () => {
    const url = await upstream(() => undefined);
    await expect(
      exchange(dispatcher(), options(url, { headersTimeout: 50 })),
    ).rejects.toBeInstanceOf(errors.HeadersTimeoutError);
  });

  it('a refused connection rejects with its cause', async () => {
    const url = await upstream(() => undefined);
    await new Promise<void>((resolve) =>
      server?.close(() => {
        resolve();
      }),
    );
    server = null;
    await expect(exchange(dispatcher(), options(url))).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });

  it('arguments undici refuses reject rather than throw', async () => {
    const pending = exchange(dispatcher(), options('not a url'));
    await expect(pending).rejects.toBeInstanceOf(Error);
  });
});
