import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  startBff,
  startSandbox,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from '../test-support/harness';

/**
 * Fixed cases of bad input the random property (every-route.property.test.ts) may not hit:
 * every malformed percent-encoding on the API proxy and BFF routes, and requests the browser
 * aborts mid-upload or while their upstream call is in flight.
 */

const MALFORMED = ['%zz', '%FF', '%', '%C0%AF', '%ED%A0%80', '%E0%A4', '%5', '%%'] as const;

let sandbox: SandboxProcess;
let bff: BffInstance;
let admin: Browser;

function unhandledErrors(instance: BffInstance): string[] {
  return instance.logLines.filter((line) => line.includes('"msg":"unhandled error"'));
}

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff({ sandbox });
  admin = await bff.login('admin');
}, 60_000);

afterAll(async () => {
  await bff.close();
  await sandbox.stop();
});

describe('malformed percent-encoding in a path segment', () => {
  it('is 400 VALIDATION_ERROR, not retryable, on BFF routes and the API proxy, without an upstream call', async () => {
    for (const segment of MALFORMED) {
      const calls = await bff.upstreamCalls();
      const answers = [
        await bff.call('GET', `/bff/operations/${segment}`, { browser: admin }),
        await bff.call('GET', `/bff/api/v1/wallets/${segment}`, { browser: admin }),
        await bff.call('GET', `/bff/api/v1/transactions/${segment}`, { browser: admin }),
        await bff.call('GET', `/bff/api/v1/ledger/accounts/${segment}/balances`, {
          browser: admin,
        }),
        await bff.call('GET', `/assets/${segment}`, { browser: admin }),
      ];
      for (const answer of answers) {
        expect(answer.status, segment).toBe(400);
        expect(answer.json, segment).toMatchObject({
          code: 'VALIDATION_ERROR',
          retryable: false,
          requestId: answer.headers['x-request-id'],
        });
      }
      expect(await bff.upstreamCalls(), segment).toBe(calls);
    }
    expect(unhandledErrors(bff)).toEqual([]);
  });

  it('passes an upstream 4xx through after exactly one attempt', async () => {
    const calls = await bff.upstreamCalls();
    const answer = await bff.call('GET', '/bff/api/v1/wallets/no-such-wallet', { browser: admin });
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ code: 'RESOURCE_NOT_FOUND', retryable: false });
    expect(await bff.upstreamCalls()).toBe(calls + 1);
  });
});

describe('a request the browser aborts', () => {
  let hanging: Server;
  let instance: BffInstance;
  let listener: Server;
  let port: number;
  const upstreamReceived: IncomingMessage[] = [];

  beforeAll(async () => {
    // An upstream that takes requests and never answers, so the proxied read is in flight.
    hanging = createServer((req) => {
      upstreamReceived.push(req);
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    instance = await startBff({ sandbox, upstreamUrl });
    // A second listener on the same app, to see when the BFF has taken a request.
    listener = createServer(instance.bff.listener);
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;
  }, 60_000);

  afterAll(async () => {
    listener.closeAllConnections();
    hanging.closeAllConnections();
    await new Promise((resolve) => listener.close(resolve));
    await new Promise((resolve) => hanging.close(resolve));
    await instance.close();
  });

  async function openRequest(head: string): Promise<ReturnType<typeof connect>> {
    const browser = await instance.login('admin');
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      `${head}\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\n` +
        `Cookie: ${browser.cookie ?? ''}\r\nX-CSRF-Token: ${browser.csrf ?? ''}\r\n`,
    );
    return socket;
  }

  function abortedLines(): unknown[] {
    return instance.logLines
      .filter((line) => line.includes('request aborted by the client'))
      .map((line) => JSON.parse(line) as unknown);
  }

  it('logs an aborted upload as an aborted request at info, not an unhandled error', async () => {
    const taken = new Promise((resolve) => listener.once('request', resolve));
    const socket = await openRequest('POST /bff/api/v1/ledger/accounts HTTP/1.1');
    socket.write('Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":');
    await taken;
    socket.destroy();
    await vi.waitFor(() => {
      expect(abortedLines()).toContainEqual(
        expect.objectContaining({ level: 30, method: 'POST', path: '/bff/api/v1/ledger/accounts' }),
      );
    });
    expect(unhandledErrors(instance)).toEqual([]);
  });

  it('logs a read cancelled while its upstream call is in flight as an aborted request', async () => {
    const before = upstreamReceived.length;
    const socket = await openRequest('GET /bff/api/v1/wallets HTTP/1.1');
    socket.write('\r\n');
    await vi.waitFor(() => {
      expect(upstreamReceived.length).toBeGreaterThan(before);
    });
    const upstreamCall = upstreamReceived.at(-1);
    socket.destroy();
    await vi.waitFor(() => {
      expect(abortedLines()).toContainEqual(
        expect.objectContaining({ level: 30, method: 'GET', path: '/bff/api/v1/wallets' }),
      );
    });
    // The browser's leaving reaches the upstream call at once, not at its 10 s deadline.
    await vi.waitFor(() => {
      expect(upstreamCall?.socket.destroyed).toBe(true);
    });
    expect(unhandledErrors(instance)).toEqual([]);
  });
});
