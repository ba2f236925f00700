import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocketServer } from 'ws';
import { connectEventsSocket, RESUME_CLOSE_CODE, SESSION_ENDED_CLOSE_CODE } from './events-socket';
import type { EventsSocket, RelayFrame, SocketState } from './events-socket';

const frame = (id: string) =>
  JSON.stringify({
    kind: 'event',
    event: { id, type: 'transaction.updated', occurredAt: '2026-01-01T00:00:00Z', data: {} },
    invalidates: ['/api/v1/transactions'],
  });

let server: WebSocketServer | null = null;

/** A relay on a free port, closed after the test. */
async function startRelay(): Promise<{ relay: WebSocketServer; port: number }> {
  const relay = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server = relay;
  await new Promise<void>((resolve) => relay.once('listening', resolve));
  return { relay, port: (relay.address() as AddressInfo).port };
}
let socket: EventsSocket | null = null;
afterEach(async () => {
  socket?.close();
  await new Promise<void>((resolve) => {
    if (server)
      server.close(() => {
        resolve();
      });
    else resolve();
  });
});

describe('connectEventsSocket', () => {
  it('resumes after the last processed id when the relay closes with 4008 "resume"', async () => {
    const urls: string[] = [];
    const { relay, port } = await startRelay();
    relay.on('connection', (ws, request) => {
      urls.push(request.url ?? '');
      if (urls.length === 1) {
        ws.send(JSON.stringify({ kind: 'upstream', state: 'connected' }));
        ws.send(frame('evt_1'));
        ws.send(frame('evt_2'));
        ws.send('not json');
        // Frames and the close frame travel in order on one socket: no delay is needed.
        ws.close(RESUME_CLOSE_CODE, 'resume');
      } else {
        ws.send(frame('evt_3'));
      }
    });

    const frames: RelayFrame[] = [];
    const states: SocketState[] = [];
    const invalid: unknown[] = [];
    await new Promise<void>((resolve) => {
      socket = connectEventsSocket({
        url: (after) => `ws://127.0.0.1:${port}/bff/events${after ? `?after=${after}` : ''}`,
        onState: (state) => states.push(state),
        onInvalidFrame: (raw) => invalid.push(raw),
        onFrame: (received) => {
          frames.push(received);
          if (received.kind === 'event') socket?.markProcessed(received.event.id);
          if (received.kind === 'event' && received.event.id === 'evt_3') resolve();
        },
      });
    });

    expect(urls).toEqual(['/bff/events', '/bff/events?after=evt_2']);
    expect(frames.map((f) => (f.kind === 'event' ? f.event.id : f.state))).toEqual([
      'connected',
      'evt_1',
      'evt_2',
      'evt_3',
    ]);
    expect(invalid).toEqual(['not json']);
    expect(states).toEqual(['connecting', 'open', 'reconnecting', 'connecting', 'open']);
  });

  it('stops reconnecting and reports the session end when the relay closes with 4001', async () => {
    let connections = 0;
    const { relay, port } = await startRelay();
    relay.on('connection', (ws) => {
      connections += 1;
      ws.close(SESSION_ENDED_CLOSE_CODE, 'session ended');
    });

    const states: SocketState[] = [];
    let ended = 0;
    socket = connectEventsSocket({
      url: () => `ws://127.0.0.1:${port}/bff/events`,
      random: () => 0,
      onState: (state) => states.push(state),
      onFrame: () => undefined,
      onSessionEnded: () => {
        ended += 1;
      },
    });
    await vi.waitFor(() => {
      expect(ended).toBe(1);
    });
    // A reconnect would be announced synchronously on close as 'reconnecting'.
    expect(connections).toBe(1);
    expect(states).toEqual(['connecting', 'open', 'closed']);
  });

  it('waits a full-jitter backoff from 1 s, doubling per failure, after an abnormal close', async () => {
    const { relay, port } = await startRelay();
    relay.on('connection', (ws) => {
      ws.close(1011, 'relay failed');
    });
    const timeouts = vi.spyOn(globalThis, 'setTimeout');
    const states: SocketState[] = [];
    try {
      socket = connectEventsSocket({
        url: () => `ws://127.0.0.1:${port}/bff/events`,
        random: () => 0.5,
        onState: (state) => states.push(state),
        onFrame: () => undefined,
      });
      await vi.waitFor(() => {
        expect(states).toContain('reconnecting');
      });
      // The first retry draws from [0, 1 s): half of it with random() = 0.5.
      expect(timeouts.mock.calls.map(([, ms]) => ms)).toContain(500);
    } finally {
      timeouts.mockRestore();
    }
  });
});

describe('a relay link gone silent', () => {
  const SILENCE_MS = 300;
  let raw: Server | null = null;
  /** Upgraded connections are the test's to end: the server no longer tracks them. */
  const held: Duplex[] = [];
  afterEach(async () => {
    for (const connection of held.splice(0)) connection.destroy();
    await new Promise<void>((resolve) => {
      if (raw)
        raw.close(() => {
          resolve();
        });
      else resolve();
    });
    raw = null;
  });

  /** Connects with the short silence limit; the states it went through. */
  const connectSilent = (port: number): SocketState[] => {
    const states: SocketState[] = [];
    socket = connectEventsSocket({
      url: () => `ws://127.0.0.1:${port}/bff/events`,
      silenceLimitMs: SILENCE_MS,
      random: () => 0,
      onState: (state) => states.push(state),
      onFrame: () => undefined,
    });
    return states;
  };

  it('keeps a socket that sends only heartbeats, and never hands them to the app', async () => {
    const { relay, port } = await startRelay();
    let connections = 0;
    relay.on('connection', (ws) => {
      connections += 1;
      const beat = setInterval(() => {
        ws.send('{"kind":"heartbeat"}');
      }, SILENCE_MS / 3);
      ws.on('close', () => {
        clearInterval(beat);
      });
    });
    const states: SocketState[] = [];
    const frames: RelayFrame[] = [];
    socket = connectEventsSocket({
      url: () => `ws://127.0.0.1:${port}/bff/events`,
      silenceLimitMs: SILENCE_MS,
      onState: (state) => states.push(state),
      onFrame: (f) => frames.push(f),
    });
    await vi.waitFor(() => {
      expect(states).toContain('open');
    });
    await new Promise((resolve) => setTimeout(resolve, SILENCE_MS * 3));
    expect(states).toEqual(['connecting', 'open']);
    expect(connections).toBe(1);
    expect(frames).toEqual([]);
  });

  it('gives up an open socket that stops sending anything, and reconnects', async () => {
    const { relay, port } = await startRelay();
    let connections = 0;
    relay.on('connection', () => {
      connections += 1; // accepted, then silent: a hung server
    });
    const states = connectSilent(port);
    await vi.waitFor(() => {
      expect(connections).toBeGreaterThanOrEqual(2);
    });
    expect(states.slice(0, 4)).toEqual(['connecting', 'open', 'reconnecting', 'connecting']);
  });

  it('gives up a connection whose handshake is never answered', async () => {
    // Accepts the TCP connection and reads the upgrade request, but never answers it.
    let attempts = 0;
    raw = createServer(() => undefined);
    raw.on('upgrade', (_request, connection: Duplex) => {
      attempts += 1;
      held.push(connection);
    });
    await new Promise<void>((resolve) => raw!.listen(0, '127.0.0.1', resolve));
    const { port } = raw.address() as AddressInfo;
    const states = connectSilent(port);
    await vi.waitFor(() => {
      expect(attempts).toBeGreaterThanOrEqual(2);
    });
    expect(states.slice(0, 3)).toEqual(['connecting', 'reconnecting', 'connecting']);
    expect(states).not.toContain('open');
  });
});
