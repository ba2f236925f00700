import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createNobleSigner,
  generateSeed,
  publicKeyFromSeed,
  restCanonicalString,
  sha256Hex,
  verifyMessage,
} from '@settlement/protocol/signing';
import { Cancellation } from './cancellation';
import { OutcomeUnknownError, SettlementApiError } from './errors';
import { iterateItems } from './pages';
import { createSettlementClient, type AttemptRecord, type SettlementClient } from './rest';

type Seen = {
  method: string;
  target: string;
  body: Buffer;
  headers: IncomingMessage['headers'];
  isSignatureValid: boolean;
};

type Handler = (seen: Seen, res: ServerResponse) => void;

const seed = generateSeed();
const publicKey = publicKeyFromSeed(seed);
const keyId = 'key_test';

/** A tiny upstream that verifies every signature with protocol's verifyMessage. */
async function startUpstream(
  handler: Handler,
): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const target = req.url ?? '';
      const header = (name: string) => {
        const value = req.headers[name];
        return typeof value === 'string' ? value : '';
      };
      const bodyHash = body.length > 0 ? sha256Hex(new Uint8Array(body)) : null;
      const canonical = restCanonicalString({
        method: req.method ?? '',
        target,
        bodyHash,
        timestamp: header('x-api-timestamp'),
        nonce: header('x-api-nonce'),
        keyId: header('x-api-key-id'),
      });
      const isSignatureValid =
        header('x-api-key-id') === keyId &&
        (bodyHash === null || header('x-api-body-hash') === bodyHash) &&
        verifyMessage(publicKey, canonical, header('x-api-signature'));
      const entry = {
        method: req.method ?? '',
        target,
        body,
        headers: req.headers,
        isSignatureValid,
      };
      seen.push(entry);
      handler(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, seen };
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function envelope(code: string, retryable: boolean, requestId = 'req_up') {
  return { code, message: code, details: [], requestId, retryable };
}

let upstream: Awaited<ReturnType<typeof startUpstream>>;
let client: SettlementClient;
let handler: Handler;

beforeEach(async () => {
  handler = (_seen, res) => {
    json(res, 200, { ok: true });
  };
  upstream = await startUpstream((seen, res) => {
    handler(seen, res);
  });
  client = createSettlementClient({
    baseUrl: upstream.url,
    signer: createNobleSigner(keyId, seed),
    retry: { baseMs: 1, capMs: 5, timeoutMs: 300 },
  });
});

afterEach(async () => {
  await client.close();
  upstream.server.closeAllConnections();
  await new Promise((resolve) => upstream.server.close(resolve));
});

describe('signing over exact bytes', () => {
  it('sends a target with re-encodable characters verbatim and signs that exact target', async () => {
    const target = "/api/v1/ledger/accounts?search=a%7eb'c|d%2Fe%20f&cursor=x+y%3D%3D";
    const response = await client.send('GET', target);
    expect(response.status).toBe(200);
    expect(upstream.seen[0]?.target).toBe(target);
    expect(upstream.seen[0]?.isSignatureValid).toBe(true);
  });

  it('hashes and sends the body bytes serialized once', async () => {
    const body = { name: 'Zoë ✓', metadata: { note: 'a\u2028b' } };
    await client.request('POST', '/api/v1/ledger/accounts', { body });
    const seen = upstream.seen[0];
    expect(seen?.isSignatureValid).toBe(true);
    expect(seen?.body.toString('utf8')).toBe(JSON.stringify(body));
    expect(seen?.headers['x-api-body-hash']).toBe(sha256Hex(JSON.stringify(body)));
  });

  it('sends no body hash on a GET and exactly {} on MPC initialize', async () => {
    await client.send('GET', '/api/v1/assets');
    await client.initializeMpc('mpc-key-1');
    expect(upstream.seen[0]?.headers['x-api-body-hash']).toBeUndefined();
    const init = upstream.seen[1];
    expect(init?.body.toString('utf8')).toBe('{}');
    expect(init?.headers['x-api-body-hash']).toBe(sha256Hex('{}'));
    expect(init?.headers['x-idempotency-key']).toBe('mpc-key-1');
    expect(init?.isSignatureValid).toBe(true);
  });
});

describe('retries', () => {
  it('retries a 503 with the same idempotency key and bytes but a fresh nonce', async () => {
    handler = (_seen, res) => {
      if (upstream.seen.length < 3) json(res, 503, envelope('UPSTREAM_UNAVAILABLE', true));
      else json(res, 201, { done: true }, { 'x-request-id': 'req_final' });
    };
    const attempts: AttemptRecord[] = [];
    const result = await client.request('POST', '/api/v1/wallets', {
      body: { chain: 'tron:nile', accountId: 'acc_1' },
      idempotencyKey: 'idem-1',
      requestId: 'mine-1',
      onAttempt: (record) => attempts.push(record),
    });
    expect(result.status).toBe(201);
    expect(result.requestId).toBe('req_final');
    expect(upstream.seen).toHaveLength(3);
    const keys = upstream.seen.map((s) => s.headers['x-idempotency-key']);
    expect(new Set(keys)).toEqual(new Set(['idem-1']));
    expect(new Set(upstream.seen.map((s) => s.body.toString('hex'))).size).toBe(1);
    expect(new Set(upstream.seen.map((s) => s.headers['x-api-nonce'])).size).toBe(3);
    expect(upstream.seen.every((s) => s.isSignatureValid)).toBe(true);
    expect(attempts.map((a) => [a.attempt, a.status, a.requestIdSent])).toEqual([
      [1, 503, 'mine-1'],
      [2, 503, 'mine-1.2'],
      [3, 201, 'mine-1.3'],
    ]);
  });

  it('retries a 5xx whose envelope says retryable, and a dropped connection', async () => {
    handler = (_seen, res) => {
      if (upstream.seen.length === 1) json(res, 500, envelope('INTERNAL_ERROR', true));
      else if (upstream.seen.length === 2) res.socket?.destroy();
      else json(res, 200, { items: [], nextCursor: null });
    };
    const page = await client.listAccounts();
    expect(page.items).toEqual([]);
    expect(upstream.seen).toHaveLength(3);
  });

  it('retries after a timeout', async () => {
    handler = (_seen, res) => {
      if (upstream.seen.length === 1) return; // never answers
      json(res, 200, { items: [], nextCursor: null });
    };
    await client.listWallets();
    expect(upstream.seen).toHaveLength(2);
  });

  it('never retries a 4xx and surfaces its envelope as a typed error', async () => {
    handler = (_seen, res) => {
      json(res, 409, envelope('CLIENT_REFERENCE_CONFLICT', false, 'req_409'), {
        'x-request-id': 'req_409',
      });
    };
    const error = await client
      .createTransaction(
        { walletId: 'w', asset: 'TRX', toAddress: 'T', amountAtomic: '1' },
        'idem-4xx',
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SettlementApiError);
    expect(error).toMatchObject({
      code: 'CLIENT_REFERENCE_CONFLICT',
      status: 409,
      requestId: 'req_409',
      retryable: false,
    });
    expect(upstream.seen).toHaveLength(1);
  });

  it('never retries a mutating call without an idempotency key', async () => {
    handler = (_seen, res) => {
      json(res, 503, envelope('UPSTREAM_UNAVAILABLE', true));
    };
    const error = await client.createAccount({ name: 'A' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(upstream.seen).toHaveLength(1);
  });

  it('gives OutcomeUnknownError carrying the key after three failed attempts', async () => {
    handler = (_seen, res) => {
      json(res, 503, envelope('UPSTREAM_UNAVAILABLE', true));
    };
    const error = await client
      .createWallet({ chain: 'tron:nile', accountId: 'a' }, 'idem-x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).toMatchObject({ attempts: 3, idempotencyKey: 'idem-x', lastStatus: 503 });
    expect(upstream.seen).toHaveLength(3);
  });

  it('passes the last 503 of a read through, and fails a read that never connects', async () => {
    handler = (_seen, res) => {
      json(res, 503, envelope('UPSTREAM_UNAVAILABLE', true));
    };
    const response = await client.send('GET', '/api/v1/mpc/status');
    expect(response.status).toBe(503);
    expect(response.attempts).toBe(3);
    const unreachable = createSettlementClient({
      baseUrl: 'http://127.0.0.1:1',
      signer: createNobleSigner(keyId, seed),
      retry: { baseMs: 1, capMs: 2, timeoutMs: 200 },
    });
    const error = await unreachable.getMpcStatus().catch((e: unknown) => e);
    await unreachable.close();
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', status: 503, retryable: true });
  });
});

describe('per-attempt cost', () => {
  it('makes no AbortSignal.timeout or AbortSignal.any per attempt and signs fresh 32-hex nonces', async () => {
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    const any = vi.spyOn(AbortSignal, 'any');
    try {
      const caller = new AbortController();
      for (let i = 0; i < 5; i += 1) {
        await client.send('GET', '/api/v1/assets', { signal: caller.signal });
      }
      expect(timeout).not.toHaveBeenCalled();
      expect(any).not.toHaveBeenCalled();
    } finally {
      timeout.mockRestore();
      any.mockRestore();
    }
    const nonces = upstream.seen.map((s) => s.headers['x-api-nonce']);
    expect(nonces.every((n) => typeof n === 'string' && /^[0-9a-f]{32}$/.test(n))).toBe(true);
    expect(new Set(nonces).size).toBe(5);
    expect(upstream.seen.every((s) => s.isSignatureValid)).toBe(true);
  });

  it('passes a 2xx answer on as bytes without parsing it when both ids come as headers', async () => {
    handler = (_seen, res) => {
      json(
        res,
        200,
        { items: [], nextCursor: null },
        {
          'x-request-id': 'req_up',
          'x-correlation-id': 'corr_up',
        },
      );
    };
    // The first call makes undici's pool (which clones its options through JSON.parse).
    await client.send('GET', '/api/v1/wallets');
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const response = await client.send('GET', '/api/v1/wallets');
      expect(parse).not.toHaveBeenCalled();
      expect(response).toMatchObject({
        status: 200,
        requestId: 'req_up',
        correlationId: 'corr_up',
      });
    } finally {
      parse.mockRestore();
    }
    handler = (_seen, res) => {
      json(res, 409, envelope('CLIENT_REFERENCE_CONFLICT', false, 'req_body'));
    };
    const conflict = await client.send('GET', '/api/v1/wallets');
    expect(conflict.requestId).toBe('req_body');
  });

  it('an attempt the caller aborts ends at once and is not retried', async () => {
    handler = () => undefined; // never answers
    const caller = new AbortController();
    const pending = client.send('GET', '/api/v1/assets', { signal: caller.signal });
    await vi.waitFor(() => {
      expect(upstream.seen).toHaveLength(1);
    });
    caller.abort(new Error('browser left'));
    await expect(pending).rejects.toThrow('browser left');
    expect(upstream.seen).toHaveLength(1);
  });

  it('so does one stopped by a Cancellation, which undici takes as its signal too', async () => {
    handler = () => undefined; // never answers
    const caller = new Cancellation();
    const pending = client.send('GET', '/api/v1/assets', { signal: caller });
    await vi.waitFor(() => {
      expect(upstream.seen).toHaveLength(1);
    });
    caller.abort(new Error('browser left'));
    await expect(pending).rejects.toThrow('browser left');
    expect(upstream.seen).toHaveLength(1);
    expect(caller.listenerCount('abort')).toBe(0);
  });
});

describe('typed results and pages', () => {
  it('follows nextCursor unchanged until null', async () => {
    const cursors = ['c1+/==', 'c2%7e', null];
    handler = (seen, res) => {
      const index = upstream.seen.length - 1;
      const url = new URL(seen.target, 'http://x');
      json(res, 200, {
        items: [{ n: index, cursor: url.searchParams.get('cursor') }],
        nextCursor: cursors[index] ?? null,
      });
    };
    const items: unknown[] = [];
    for await (const item of iterateItems(async (cursor) => {
      const { data } = await client.request(
        'GET',
        `/api/v1/wallets?limit=1${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
      );
      return data as { items: unknown[]; nextCursor: string | null };
    })) {
      items.push(item);
    }
    expect(items).toEqual([
      { n: 0, cursor: null },
      { n: 1, cursor: 'c1+/==' },
      { n: 2, cursor: 'c2%7e' },
    ]);
  });

  it('refuses a response that does not match the interface schema', async () => {
    handler = (_seen, res) => {
      json(res, 200, { items: [{ id: 1 }], nextCursor: null });
    };
    await expect(client.listAccounts()).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  it('builds query strings once and encodes path ids', async () => {
    handler = (_seen, res) => {
      json(res, 200, { items: [], nextCursor: null });
    };
    await client.listTransactions({ clientReference: 'op a/b', limit: 5, status: undefined });
    await client.send('GET', '/api/v1/wallets/w%2F1');
    expect(upstream.seen[0]?.target).toBe(
      '/api/v1/transactions?clientReference=op%20a%2Fb&limit=5',
    );
    expect(upstream.seen.every((s) => s.isSignatureValid)).toBe(true);
  });
});
