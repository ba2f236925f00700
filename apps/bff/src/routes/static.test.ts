import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import express from 'express';
import pino from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMiddleware } from '../errors';
import { compressResponses, preferredEncoding, staticRoutes, withEarlyPaint } from './static';

const SCRIPT = `${'export const rows = [];\n'.repeat(400)}console.log(rows.length);\n`;
const INDEX = `<!doctype html><html><head><title>Console</title></head><body>${'<div class="x"></div>'.repeat(100)}</body></html>`;

let dir: string;
let server: Server;
let url: string;

async function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const response = await request(`${url}${path}`, { method, headers });
  const body = Buffer.from(await response.body.arrayBuffer());
  const header = (name: string) => {
    const value = response.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  return { status: response.statusCode, header, body };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bff-static-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-3f2a1b.js'), SCRIPT);
  writeFileSync(join(dir, 'assets', 'tiny-9c8d7e.js'), 'console.log(1);');
  writeFileSync(join(dir, 'assets', 'logo-1a2b3c.png'), randomBytes(4096));
  const statics = staticRoutes(dir);
  await statics.warm();
  const app = express();
  app.use(statics.router);
  app.use(errorMiddleware(pino({ level: 'silent' })));
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('static console compression', () => {
  it('serves a hashed asset brotli-encoded to a client that accepts br, decoding to the file', async () => {
    const response = await get('/assets/index-3f2a1b.js', {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(response.status).toBe(200);
    expect(response.header('content-encoding')).toBe('br');
    expect(response.header('vary')).toMatch(/accept-encoding/i);
    expect(response.header('content-type')).toMatch(/javascript/);
    expect(response.header('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Number(response.header('content-length'))).toBe(response.body.length);
    expect(response.body.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(response.body).toString('utf8')).toBe(SCRIPT);
  });

  it('serves gzip when the client prefers or only accepts gzip', async () => {
    for (const accept of ['gzip', 'gzip;q=1, br;q=0.5']) {
      const response = await get('/assets/index-3f2a1b.js', { 'accept-encoding': accept });
      expect(response.header('content-encoding')).toBe('gzip');
      expect(gunzipSync(response.body).toString('utf8')).toBe(SCRIPT);
    }
  });

  it('serves the identity form, still marked Vary, without Accept-Encoding or with br;q=0, gzip;q=0', async () => {
    for (const headers of [
      {},
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
      { 'accept-encoding': 'identity' },
    ]) {
      const response = await get('/assets/index-3f2a1b.js', headers);
      expect(response.status).toBe(200);
      expect(response.header('content-encoding')).toBeUndefined();
      expect(response.header('vary')).toMatch(/accept-encoding/i);
      expect(response.body.toString('utf8')).toBe(SCRIPT);
    }
  });

  it('compresses the SPA fallback (index.html, no-cache) too', async () => {
    const response = await get('/transactions/tx_1', { 'accept-encoding': 'br' });
    expect(response.status).toBe(200);
    expect(response.header('content-encoding')).toBe('br');
    expect(response.header('cache-control')).toBe('no-cache');
    expect(response.header('content-type')).toMatch(/text\/html/);
    expect(brotliDecompressSync(response.body).toString('utf8')).toBe(INDEX);
  });

  it('answers HEAD with the encoded length and no body', async () => {
    const full = await get('/assets/index-3f2a1b.js', { 'accept-encoding': 'gzip' });
    const head = await get('/assets/index-3f2a1b.js', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.header('content-encoding')).toBe('gzip');
    expect(head.header('content-length')).toBe(String(full.body.length));
    expect(head.body.length).toBe(0);
  });

  it('leaves tiny files and already-compressed images unencoded', async () => {
    const tiny = await get('/assets/tiny-9c8d7e.js', { 'accept-encoding': 'br, gzip' });
    expect(tiny.header('content-encoding')).toBeUndefined();
    expect(tiny.body.toString('utf8')).toBe('console.log(1);');
    const image = await get('/assets/logo-1a2b3c.png', { 'accept-encoding': 'br, gzip' });
    expect(image.status).toBe(200);
    expect(image.header('content-encoding')).toBeUndefined();
    expect(image.body.length).toBe(4096);
  });

  it('recompresses a file that changed on disk (e.g. a rebuilt index.html)', async () => {
    const next = INDEX.replace('Console', 'Console, rebuilt');
    writeFileSync(join(dir, 'index.html'), next);
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(dir, 'index.html'), later, later);
    const response = await get('/', { 'accept-encoding': 'gzip' });
    expect(gunzipSync(response.body).toString('utf8')).toBe(next);
  });

  it('answers a missing asset and a traversal attempt with 404, never a file outside the build', async () => {
    const missing = await get('/assets/nope-000000.js', { 'accept-encoding': 'br' });
    expect(missing.status).toBe(404);
    expect(missing.body.toString('utf8')).toContain('RESOURCE_NOT_FOUND');
    const traversal = await get('/assets/..%2f..%2fetc%2fpasswd', { 'accept-encoding': 'br' });
    expect(traversal.status).toBe(404);
  });
});

describe('preferredEncoding', () => {
  it('picks br on a tie, follows q-values, honours * and refusals', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip;q=1.0, br;q=0.8')).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip')).toBe('gzip');
    expect(preferredEncoding('*')).toBe('br');
    expect(preferredEncoding('*;q=0, identity')).toBeNull();
    expect(preferredEncoding('deflate')).toBeNull();
    expect(preferredEncoding(undefined)).toBeNull();
    expect(preferredEncoding('')).toBeNull();
  });
});

describe('compressResponses (BFF JSON)', () => {
  const PAGE = {
    items: Array.from({ length: 60 }, (_, i) => ({ id: `tx_${String(i)}`, status: 'CONFIRMED' })),
  };
  const PAGE_TEXT = JSON.stringify(PAGE);
  let jsonServer: Server;
  let jsonUrl: string;

  beforeAll(async () => {
    const app = express();
    app.use(compressResponses({ isSecretBearing: (req) => req.path.startsWith('/auth/') }));
    app.get('/page', (_req, res) => {
      res.json(PAGE);
    });
    // As the /bff/api pass-through answers: the upstream's bytes in one res.end.
    app.get('/pass-through', (_req, res) => {
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(Buffer.from(PAGE_TEXT));
    });
    app.get('/small', (_req, res) => {
      res.json({ ok: true });
    });
    app.get('/auth/me', (_req, res) => {
      res.json({ ...PAGE, csrfToken: 'secret' });
    });
    app.get('/stream', (_req, res) => {
      res.setHeader('content-type', 'text/csv');
      res.write(PAGE_TEXT);
      res.end(PAGE_TEXT);
    });
    jsonServer = createServer(app);
    await new Promise<void>((resolve) => jsonServer.listen(0, '127.0.0.1', resolve));
    jsonUrl = `http://127.0.0.1:${String((jsonServer.address() as AddressInfo).port)}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => jsonServer.close(resolve));
  });

  async function fetchRaw(path: string, accept?: string) {
    const response = await request(`${jsonUrl}${path}`, {
      headers: accept ? { 'accept-encoding': accept } : {},
    });
    const body = Buffer.from(await response.body.arrayBuffer());
    const header = (name: string) => {
      const value = response.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    return { status: response.statusCode, header, body };
  }

  it('compresses res.json and a whole-body res.end (the API pass-through) with br or gzip', async () => {
    for (const path of ['/page', '/pass-through']) {
      const br = await fetchRaw(path, 'gzip, deflate, br');
      expect(br.header('content-encoding')).toBe('br');
      expect(br.header('vary')).toMatch(/accept-encoding/i);
      expect(Number(br.header('content-length'))).toBe(br.body.length);
      expect(br.body.length).toBeLessThan(PAGE_TEXT.length / 4);
      expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(PAGE);

      const gz = await fetchRaw(path, 'gzip');
      expect(gz.header('content-encoding')).toBe('gzip');
      expect(JSON.parse(gunzipSync(gz.body).toString('utf8'))).toEqual(PAGE);
    }
  });

  it('sends identity without Accept-Encoding, below 1 KiB, for secret-bearing routes and for streams', async () => {
    const plain = await fetchRaw('/page');
    expect(plain.header('content-encoding')).toBeUndefined();
    expect(plain.header('vary')).toMatch(/accept-encoding/i);
    expect(JSON.parse(plain.body.toString('utf8'))).toEqual(PAGE);
    const small = await fetchRaw('/small', 'br');
    expect(small.header('content-encoding')).toBeUndefined();
    const me = await fetchRaw('/auth/me', 'br');
    expect(me.header('content-encoding')).toBeUndefined();
    expect(JSON.parse(me.body.toString('utf8'))).toMatchObject({ csrfToken: 'secret' });
    const stream = await fetchRaw('/stream', 'br');
    expect(stream.header('content-encoding')).toBeUndefined();
    expect(stream.body.toString('utf8')).toBe(PAGE_TEXT + PAGE_TEXT);
  });
});

describe("the landing page's early paint", () => {
  const PAGE = [
    '<!doctype html><html><head><title>Console</title></head><body>',
    '<div id="root">\n<div role="status">Loading the console…</div>\n</div>\n',
    '<template id="signed-in-overview">\n<main><div class="mt-1">Signed in as {{username}} ({{role}}).</div></main>\n</template>\n',
    '<script type="module" src="/assets/index.js"></script></body></html>',
  ].join('');
  let pageDir: string;
  let pageServer: Server;
  let pageUrl: string;

  beforeAll(async () => {
    pageDir = mkdtempSync(join(tmpdir(), 'bff-static-early-'));
    mkdirSync(join(pageDir, 'assets'));
    writeFileSync(join(pageDir, 'index.html'), PAGE);
    const statics = staticRoutes(pageDir, {
      // Signed in when the test sends the cookie; the username needs escaping.
      signedInAs: (req) =>
        Promise.resolve(
          req.headers.cookie === 'session=ok'
            ? { username: 'ops<b>&"x"', role: 'treasury', isSandbox: false }
            : null,
        ),
    });
    await statics.warm();
    const app = express();
    app.use(statics.router);
    app.use(errorMiddleware(pino({ level: 'silent' })));
    pageServer = createServer(app);
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${String((pageServer.address() as AddressInfo).port)}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => pageServer.close(resolve));
    rmSync(pageDir, { recursive: true, force: true });
  });

  async function page(path: string, headers: Record<string, string>) {
    const response = await request(`${pageUrl}${path}`, { headers });
    const body = Buffer.from(await response.body.arrayBuffer());
    const encoding = response.headers['content-encoding'];
    const text = (
      encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body
    ).toString('utf8');
    return { status: response.statusCode, headers: response.headers, text, length: body.length };
  }

  it('puts the template, filled in and escaped, in #root of `/` for a signed-in operator, never cached', async () => {
    for (const accept of ['br', 'gzip', '']) {
      const response = await page('/', { cookie: 'session=ok', 'accept-encoding': accept });
      expect(response.status).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers.vary).toMatch(/cookie/i);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(Number(response.headers['content-length'])).toBe(response.length);
      expect(response.text).toBe(
        [
          '<!doctype html><html><head><title>Console</title></head><body>',
          '<div id="root">\n<main><div class="mt-1">Signed in as ops&#60;b&#62;&#38;&#34;x&#34; (treasury).</div></main>\n</div>\n',
          '<script type="module" src="/assets/index.js"></script></body></html>',
        ].join(''),
      );
    }
  });

  it('serves the file as it is to nobody signed in, and on any other page', async () => {
    const signedOut = await page('/', { 'accept-encoding': 'br' });
    expect(signedOut.text).toBe(PAGE);
    expect(signedOut.headers['cache-control']).toBe('no-cache');
    const otherPage = await page('/transactions', {
      cookie: 'session=ok',
      'accept-encoding': 'br',
    });
    expect(otherPage.text).toBe(PAGE);
  });

  it('keeps the sandbox-only markup for a sandbox upstream, and drops it for a live one', () => {
    const page = [
      '<div id="root"><p>Loading</p></div>',
      '<template id="signed-in-overview"><header>',
      '<!--sandbox--><p>Sandbox: simulated chain</p><!--/sandbox--></header>',
      '<p>{{username}}</p></template>',
    ].join('');
    const identity = { username: 'ops', role: 'treasury' };
    expect(withEarlyPaint(page, { ...identity, isSandbox: true })).toBe(
      '<div id="root"><header><p>Sandbox: simulated chain</p></header><p>ops</p></div>',
    );
    expect(withEarlyPaint(page, { ...identity, isSandbox: false })).toBe(
      '<div id="root"><header></header><p>ops</p></div>',
    );
  });

  it('leaves a page without the template unchanged', () => {
    expect(withEarlyPaint(INDEX, { username: 'ops', role: 'treasury', isSandbox: true })).toBe(
      INDEX,
    );
  });
});
