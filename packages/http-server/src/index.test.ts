import { execFileSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createExpressServer } from './index';

let server: Server | null = null;
afterEach(async () => {
  const open = server;
  server = null;
  if (!open) return;
  await new Promise<void>((resolve) => {
    open.close(() => {
      resolve();
    });
  });
});

async function listen(
  app: express.Express,
  listener?: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; url: string }> {
  const created = createExpressServer(app, listener);
  server = created;
  await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
  return { server: created, url: `http://127.0.0.1:${(created.address() as AddressInfo).port}` };
}

describe('createExpressServer', () => {
  it('gives every request and response express prototypes before express sees them', async () => {
    const app = express();
    app.get('/x', (req, res) => {
      res.json({ path: req.path, query: req.query, ip: req.ip });
    });
    const { server: created, url } = await listen(app);
    const born: boolean[] = [];
    created.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      born.push(
        Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response,
      );
    });
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(`${url}/x?a=${i}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        path: '/x',
        query: { a: String(i) },
        ip: '127.0.0.1',
      });
    }
    expect(born).toEqual([true, true, true]);
  });

  it('keeps them Node requests and responses: streams, headers and errors work', async () => {
    const app = express();
    app.use(express.json());
    app.post('/echo', (req, res) => {
      expect(req).toBeInstanceOf(IncomingMessage);
      expect(res).toBeInstanceOf(ServerResponse);
      res
        .status(201)
        .set('x-seen', 'yes')
        .json({ body: req.body as unknown });
    });
    app.use((_req, res) => {
      res.status(404).end();
    });
    const { url } = await listen(app);
    const echo = await fetch(`${url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amountAtomic: '12345678901234567890' }),
    });
    expect(echo.status).toBe(201);
    expect(echo.headers.get('x-seen')).toBe('yes');
    expect(await echo.json()).toEqual({ body: { amountAtomic: '12345678901234567890' } });
    expect((await fetch(`${url}/missing`)).status).toBe(404);
  });

  it('runs the listener given, which may answer ahead of the app and hand it the rest', async () => {
    const app = express();
    app.get('/late', (_req, res) => {
      res.json({ by: 'express' });
    });
    const { url } = await listen(app, (req, res) => {
      if (req.url !== '/early') {
        app(req, res);
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ by: 'listener' }));
    });
    expect(await (await fetch(`${url}/early`)).json()).toEqual({ by: 'listener' });
    expect(await (await fetch(`${url}/late`)).json()).toEqual({ by: 'express' });
  });

  it('keeps V8 fast properties on the requests and responses, ahead of express and in it', () => {
    // Born in dictionary mode, every field of node's (~40 a response) was a hash look-up.
    // Only a node started with --allow-natives-syntax can tell, so the check runs in one.
    const fixture = fileURLToPath(new URL('./test-support/fast-properties.ts', import.meta.url));
    const output = execFileSync(
      process.execPath,
      ['--allow-natives-syntax', '--import', 'tsx', fixture],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(JSON.parse(output)).toEqual({
      aheadRequest: true,
      aheadResponse: true,
      routeRequest: true,
      routeResponse: true,
    });
  });
});
