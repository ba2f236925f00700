import type { AddressInfo } from 'node:net';
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
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server!.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    server.on('connection', (ws, request) => {
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
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server!.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    server.on('connection', (ws) => {
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
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server!.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    server.on('connection', (ws) => {
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
