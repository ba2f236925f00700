import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import type { NormalizedEvent, SocketState } from '@settlement/protocol';
import {
  createNobleSigner,
  generateSeed,
  publicKeyFromSeed,
  verifyMessage,
  wsCanonicalString,
} from '@settlement/protocol/signing';
import { connectEventStream, type EventRejection, type EventStream } from './events';

const seed = generateSeed();
const publicKey = publicKeyFromSeed(seed);
const ORG = 'org_1';

type Upstream = {
  server: Server;
  url: string;
  sockets: WebSocket[];
  upgrades: { url: string; isValid: boolean }[];
  onConnection: (ws: WebSocket, req: IncomingMessage) => void;
};

function isHandshakeValid(req: IncomingMessage): boolean {
  const h = (name: string) => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : '';
  };
  const canonical = wsCanonicalString({ timestamp: h('x-api-timestamp'), nonce: h('x-api-nonce') });
  return h('x-api-key-id') === 'k_ws' && verifyMessage(publicKey, canonical, h('x-api-signature'));
}

async function startUpstream(): Promise<Upstream> {
  const wss = new WebSocketServer({ noServer: true });
  const server = createServer();
  const upstream: Upstream = {
    server,
    url: '',
    sockets: [],
    upgrades: [],
    onConnection: () => undefined,
  };
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => undefined);
    const isValid = isHandshakeValid(req);
    upstream.upgrades.push({ url: req.url ?? '', isValid });
    if (!isValid) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      upstream.sockets.push(ws);
      upstream.onConnection(ws, req);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/v1/ws`;
  return upstream;
}

function mvp(id: string, orgId = ORG, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    type: 'EVENT',
    event: 'account.created',
    eventId: id,
    version: 1,
    orgId,
    occurredAt: '2025-01-01T00:00:00.000Z',
    correlationId: 'corr_1',
    data: {
      accountId: `acc_${id}`,
      orgId,
      name: 'A',
      externalId: null,
      createdAt: '2025-01-01T00:00:00.000Z',
      requestId: 'req_1',
      idempotencyKey: null,
    },
    ...extra,
  });
}

async function waitFor(predicate: () => boolean): Promise<void> {
  await vi.waitFor(
    () => {
      if (!predicate()) throw new Error('not yet');
    },
    { timeout: 3_000, interval: 5 },
  );
}

let upstream: Upstream | null = null;
let stream: EventStream | null = null;

afterEach(async () => {
  await stream?.close();
  stream = null;
  if (upstream) {
    for (const ws of upstream.sockets) ws.terminate();
    upstream.server.closeAllConnections();
    const { server } = upstream;
    await new Promise((resolve) => server.close(resolve));
  }
  upstream = null;
});

function listen(
  up: Upstream,
  keyId = 'k_ws',
  extra: {
    resumeAfter?: () => string | null;
    pingIntervalMs?: number;
    onEvent?: () => void;
  } = {},
) {
  const events: NormalizedEvent[] = [];
  const rejections: EventRejection[] = [];
  const states: { state: SocketState; error: string | null }[] = [];
  const { onEvent, ...options } = extra;
  stream = connectEventStream({
    wsUrl: up.url,
    signer: createNobleSigner(keyId, seed),
    expectedOrgId: ORG,
    onEvent: (event) => {
      events.push(event);
      onEvent?.();
    },
    onRejected: (rejection) => rejections.push(rejection),
    onState: (state, detail) => states.push({ state, error: detail.error }),
    backoff: { baseMs: 5, capMs: 20 },
    ...options,
  });
  return { events, rejections, states };
}

describe('connectEventStream', () => {
  it('signs the four-line handshake, dedupes, and keeps foreign or malformed frames out', async () => {
    const up = await startUpstream();
    upstream = up;
    up.onConnection = (ws) => {
      ws.send(JSON.stringify({ type: 'SYSTEM_CONNECTED' }));
      ws.send(mvp('e1'));
      ws.send(mvp('e1'));
      ws.send(mvp('e2', 'org_other'));
      ws.send('{not json');
      ws.send(mvp('e3', ORG, { occurredAt: undefined }));
      ws.send(
        JSON.stringify({
          op: 'event',
          id: 'e4',
          sequence: 4,
          subject: 'account.created',
          occurredAt: '2025-01-01T00:00:01.000Z',
          orgId: ORG,
          correlationId: null,
          version: 1,
          data: JSON.parse(mvp('e4')).data,
        }),
      );
    };
    const { events, rejections, states } = listen(up);
    await waitFor(() => events.length === 2 && rejections.length === 3);
    expect(up.upgrades[0]).toEqual({ url: '/v1/ws', isValid: true });
    expect(events.map((e) => [e.id, e.envelope, e.sequence])).toEqual([
      ['e1', 'mvp', null],
      ['e4', 'topic', 4],
    ]);
    expect(rejections.map((r) => r.reason).sort()).toEqual([
      'foreign-org',
      'invalid-envelope',
      'not-json',
    ]);
    expect(states[0]?.state).toBe('open');
    expect(stream?.state).toBe('open');
  });

  it('reconnects after a drop, resumes from the caller position, and drops replayed ids', async () => {
    const up = await startUpstream();
    upstream = up;
    let connections = 0;
    up.onConnection = (ws) => {
      connections += 1;
      ws.send(JSON.stringify({ type: 'EVENT', event: 'system.connected' }));
      ws.send(mvp('a'));
      if (connections === 1) {
        ws.terminate();
        return;
      }
      ws.send(mvp('b'));
    };
    // The consumer's committed position: set once the first event has been processed.
    const seen: { count: number } = { count: 0 };
    const { events, states } = listen(up, 'k_ws', {
      resumeAfter: () => (seen.count > 0 ? '7' : null),
      onEvent: () => {
        seen.count += 1;
      },
    });
    await waitFor(() => events.length === 2);
    expect(events.map((e) => e.id)).toEqual(['a', 'b']);
    expect(up.upgrades.map((u) => u.url)).toEqual(['/v1/ws', '/v1/ws?resumeAfter=7']);
    expect(states.map((s) => s.state)).toContain('reconnecting');
    expect(states.at(-1)?.state).toBe('open');
  });

  it('keeps retrying with backoff while the upgrade is refused with 401', async () => {
    const up = await startUpstream();
    upstream = up;
    const { states } = listen(up, 'k_unknown');
    await waitFor(() => up.upgrades.length >= 3);
    expect(up.upgrades.every((u) => !u.isValid)).toBe(true);
    expect(states.every((s) => s.state === 'reconnecting')).toBe(true);
    expect(states[0]?.error).toContain('401');
  });

  it('terminates a socket whose peer stops answering pings, then reconnects', async () => {
    const up = await startUpstream();
    upstream = up;
    up.onConnection = (ws) => {
      ws.send(JSON.stringify({ type: 'EVENT', event: 'system.connected' }));
      if (up.sockets.length === 1) {
        // Stop reading: no pong ever comes back on this connection.
        (ws as unknown as { _socket: { pause(): void } })._socket.pause();
      }
    };
    const { states } = listen(up, 'k_ws', { pingIntervalMs: 30 });
    await waitFor(() => up.upgrades.length >= 2);
    expect(states.some((s) => s.error === 'heartbeat timeout')).toBe(true);
  });

  it('close() stops reconnecting and reports closed', async () => {
    const up = await startUpstream();
    upstream = up;
    up.onConnection = (ws) => {
      ws.send(JSON.stringify({ type: 'SYSTEM_CONNECTED' }));
    };
    const { states } = listen(up);
    await waitFor(() => states.some((s) => s.state === 'open'));
    const before = states.length;
    const upgrades = up.upgrades.length;
    // close() resolves after the socket's close event, whose handler is the one that would
    // schedule a reconnect, announcing it as 'reconnecting' at once: nothing to wait for.
    await stream?.close();
    expect(states.slice(before).map((s) => s.state)).toEqual(['closed']);
    expect(up.upgrades.length).toBe(upgrades);
  });
});
