import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getGlobalDispatcher } from 'undici';
import { createExpressServer } from '@settlement/http-server';
import { createLogger } from '../logger';
import { requestStart } from '../request-start';
import { listOperations } from '../services/operations';
import {
  startBff,
  startSandbox,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from '../test-support/harness';
import { proxiedReads } from './proxied-reads';

let sandbox: SandboxProcess;
let bff: BffInstance;
let admin: Browser;
const servers: Server[] = [];

/** Listens on a free port; closed after the file's tests. */
async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff({ sandbox });
  admin = await bff.login('admin');
}, 60_000);

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await bff.close();
  await sandbox.stop();
});

type Answer = { status: number; headers: Record<string, string>; body: string };

/** Headers that differ between any two answers (times, ids, lengths of different ids). */
const PER_ANSWER = new Set(['date', 'x-request-id', 'x-correlation-id', 'content-length']);

async function get(
  origin: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const response = await getGlobalDispatcher().request({
    origin,
    path,
    method: 'GET',
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const bytes = Buffer.from(await response.body.arrayBuffer());
  const encoding = response.headers['content-encoding'];
  const plain =
    encoding === 'br'
      ? brotliDecompressSync(bytes)
      : encoding === 'gzip'
        ? gunzipSync(bytes)
        : bytes;
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (!PER_ANSWER.has(name) && typeof value === 'string') kept[name] = value;
  }
  // The envelope's ids differ per request; everything else must be byte for byte the same.
  const text = plain
    .toString('utf8')
    .replace(/"requestId":"[^"]*"/g, '"requestId":"*"')
    .replace(/"correlationId":"[^"]*"/g, '"correlationId":"*"');
  return { status: response.statusCode, headers: kept, body: text };
}

describe('proxied reads ahead of express', () => {
  it('answer every kind of read exactly as the express route does', async () => {
    const expressOnly = await listen(createExpressServer(bff.bff.app));
    const support = await bff.login('support');
    const cookie = (browser: Browser) => ({ cookie: browser.cookie ?? '' });
    // Every read is open to support, the least role; a role refused is an express route's.
    expect(listOperations().filter((o) => o.method === 'GET' && o.role !== 'support')).toEqual([]);
    const cases: { path: string; headers: Record<string, string>; status: number }[] = [
      { path: '/bff/api/v1/ledger/accounts?limit=2', headers: cookie(admin), status: 200 },
      {
        path: '/bff/api/v1/ledger/accounts?limit=20',
        headers: { ...cookie(admin), 'accept-encoding': 'gzip' },
        status: 200,
      },
      {
        path: '/bff/api/v1/ledger/accounts?limit=20',
        headers: { ...cookie(admin), 'accept-encoding': 'gzip, deflate, br' },
        status: 200,
      },
      { path: '/bff/api/v1/assets', headers: cookie(support), status: 200 },
      { path: '/bff/api/v1/ledger/accounts', headers: {}, status: 401 },
      { path: '/bff/api/v1/ledger/accounts', headers: { cookie: 'sid=forged' }, status: 401 },
      { path: '/bff/api/v1/no-such-thing', headers: cookie(admin), status: 404 },
      { path: '/bff/api/v1/ledger/accounts?limit=x', headers: cookie(admin), status: 400 },
      { path: '/bff/api/v1/ledger/accounts?colour=red', headers: cookie(admin), status: 400 },
      { path: '/bff/api/v1/wallets/%E0%A4%A', headers: cookie(admin), status: 400 },
      { path: '/bff/api/v1/transactions/missing-one', headers: cookie(admin), status: 404 },
    ];
    for (const { path, headers, status } of cases) {
      const fast = await get(bff.url, path, headers);
      const slow = await get(expressOnly, path, headers);
      expect({ path, ...fast }).toEqual({ path, ...slow });
      expect({ path, status: fast.status }).toEqual({ path, status });
    }
    // A read with a body is express's, and refused there alike.
    const withBody = await get(bff.url, '/bff/api/v1/assets', cookie(admin), '{}');
    expect(withBody.status).toBe(400);
    expect(withBody).toEqual(await get(expressOnly, '/bff/api/v1/assets', cookie(admin), '{}'));
  });

  it('take GET /bff/api/ without a body only, and leave every other request to express', async () => {
    const reads = proxiedReads({
      services: bff.bff.services,
      startRequest: requestStart(createLogger('silent')),
      logger: createLogger('silent'),
    });
    const origin = await listen(
      createServer((req, res) => {
        if (reads(req, res)) return;
        res.statusCode = 299;
        res.end();
      }),
    );
    const signedIn = { cookie: admin.cookie ?? '' };
    const send = async (method: string, path: string, body?: string) => {
      const response = await getGlobalDispatcher().request({
        origin,
        path,
        method,
        headers: signedIn,
        ...(body === undefined ? {} : { body }),
      });
      await response.body.dump();
      return response.statusCode;
    };
    expect(await send('GET', '/bff/api/v1/assets')).toBe(200);
    expect(await send('GET', '/bff/api/v1/nope')).toBe(404);
    expect(await send('GET', '/bff/api/v1/assets', 'x')).toBe(299);
    expect(await send('HEAD', '/bff/api/v1/assets')).toBe(299);
    expect(await send('POST', '/bff/api/v1/ledger/accounts', '{}')).toBe(299);
    expect(await send('GET', '/bff/auth/me')).toBe(299);
    expect(await send('GET', '/bff/apiary')).toBe(299);
    expect(await send('GET', '/')).toBe(299);
  });

  it('refuse a read at once after its session ended here, though the session was read just before', async () => {
    const read = (browser: Browser) =>
      bff.call('GET', '/bff/api/v1/assets', { browser }).then((answer) => answer.status);
    const leaving = await bff.login('support');
    expect(await read(leaving)).toBe(200);
    expect((await bff.call('POST', '/bff/auth/logout', { browser: leaving })).status).toBe(204);
    expect(await read(leaving)).toBe(401);

    const disabled = await bff.login('treasury');
    expect(await read(disabled)).toBe(200);
    const change = await bff.call('PATCH', '/bff/operators/treasury', {
      browser: admin,
      body: { disabled: true },
    });
    expect(change.status).toBe(200);
    expect(await read(disabled)).toBe(401);
  });

  it('log one request line per read, under our id, naming the upstream id the answer carries', async () => {
    const before = bff.logLines.length;
    const answer = await bff.call('GET', '/bff/api/v1/assets?', { browser: admin });
    expect(answer.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const lines = bff.logLines
      .slice(before)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'request');
    expect(lines).toEqual([
      expect.objectContaining({
        requestId: expect.stringMatching(/^bff_/),
        upstreamRequestId: answer.headers['x-request-id'],
        method: 'GET',
        path: '/bff/api/v1/assets',
        status: 200,
      }),
    ]);
  });
});
