import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { RELAY_CLOSE, RelayFrameSchema } from '@settlement/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createHub, SESSION_CHECK_INTERVAL_MS } from './hub';

/** The parts of a `ws` socket the hub uses, recording what the hub did to it. */
class FakeSocket extends EventEmitter {
  readyState: number = WebSocket.OPEN;
  bufferedAmount = 0;
  closed: { code: number; reason: string } | null = null;
  isTerminated = false;
  pings = 0;
  close(code: number, reason: string): void {
    this.closed = { code, reason };
  }
  terminate(): void {
    this.isTerminated = true;
  }
  ping(): void {
    this.pings += 1;
  }
  /** Frames sent through ws (a socket without a plain transport), as their payloads. */
  sent: string[] = [];
  send(payload: string): void {
    this.sent.push(payload);
  }
}

const transport = { cork: () => undefined, uncork: () => undefined } as unknown as Duplex;

function connect(hub: ReturnType<typeof createHub>, sessionHash: string): FakeSocket {
  const socket = new FakeSocket();
  hub.add(socket as unknown as WebSocket, transport, sessionHash, []);
  return socket;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('hub session checks', () => {
  it('closes the sockets of a session that expired within the check period, long before the heartbeat', async () => {
    const alive = new Set(['session-a', 'session-b']);
    const isSessionAlive = vi.fn((hash: string) => Promise.resolve(alive.has(hash)));
    const hub = createHub({ maxBufferedBytes: 1024, pingIntervalMs: 30_000, isSessionAlive });
    const a1 = connect(hub, 'session-a');
    const a2 = connect(hub, 'session-a');
    const b = connect(hub, 'session-b');
    hub.start();

    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS);
    expect([a1.closed, a2.closed, b.closed]).toEqual([null, null, null]);

    // Expiry has no event: the next check notices it.
    alive.delete('session-a');
    isSessionAlive.mockClear();
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS);
    expect(a1.closed).toEqual(RELAY_CLOSE.sessionEnded);
    expect(a2.closed).toEqual(RELAY_CLOSE.sessionEnded);
    expect(b.closed).toBeNull();
    expect(hub.size).toBe(1);
    // One look-up per session per check, not one per socket.
    expect(isSessionAlive.mock.calls).toEqual([['session-a'], ['session-b']]);
    // No heartbeat has run yet: the close came from the session check.
    expect(b.pings).toBe(0);
    hub.stop();
  });

  it('honours an injected check period and stops checking once stopped', async () => {
    const isSessionAlive = vi.fn(() => Promise.resolve(false));
    const hub = createHub({
      maxBufferedBytes: 1024,
      pingIntervalMs: 30_000,
      sessionCheckIntervalMs: 200,
      isSessionAlive,
    });
    hub.start();
    hub.stop();
    const socket = connect(hub, 'session-x');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(isSessionAlive).not.toHaveBeenCalled();
    expect(socket.closed).toBeNull();

    hub.start();
    await vi.advanceTimersByTimeAsync(199);
    expect(socket.closed).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(socket.closed).toEqual(RELAY_CLOSE.sessionEnded);
    // A peer that never takes the close frame is cut after the grace period.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(socket.isTerminated).toBe(true);
    hub.stop();
  });

  it('terminates a socket that missed a heartbeat without calling it a session end', () => {
    const hub = createHub({
      maxBufferedBytes: 1024,
      pingIntervalMs: 30_000,
      isSessionAlive: () => Promise.resolve(true),
    });
    const socket = connect(hub, 'session-a');
    hub.start();
    vi.advanceTimersByTime(30_000);
    expect(socket.pings).toBe(1);
    vi.advanceTimersByTime(30_000);
    expect(socket.isTerminated).toBe(true);
    expect(socket.closed).toBeNull();
    expect(hub.size).toBe(0);
    hub.stop();
  });
});

describe('hub broadcast', () => {
  it('writes each frame straight to a plain socket, reading its negotiated extensions once', () => {
    const hub = createHub({
      maxBufferedBytes: 1024,
      pingIntervalMs: 30_000,
      isSessionAlive: () => Promise.resolve(true),
    });
    const socket = new FakeSocket();
    let extensionReads = 0;
    Object.defineProperty(socket, 'extensions', {
      get: () => {
        extensionReads += 1;
        return '';
      },
    });
    const written: string[] = [];
    const plain = {
      cork: () => undefined,
      uncork: () => undefined,
      write: (chunk: Buffer) => written.push(chunk.toString('utf8')),
    } as unknown as Duplex;
    hub.add(socket as unknown as WebSocket, plain, 'session-a', []);
    hub.broadcast('{"n":1}');
    hub.broadcast('{"n":2}', '{"n":3}');
    expect(written).toHaveLength(3);
    expect(written.every((frame, i) => frame.endsWith(`{"n":${String(i + 1)}}`))).toBe(true);
    // Settled by the handshake: not asked again for every frame.
    expect(extensionReads).toBe(1);
    hub.stop();
  });
});

describe('hub heartbeat frames', () => {
  it('sends every socket a heartbeat frame each period, events or not, until stopped', async () => {
    const hub = createHub({
      maxBufferedBytes: 1024,
      pingIntervalMs: 30_000,
      heartbeatIntervalMs: 10_000,
      isSessionAlive: () => Promise.resolve(true),
    });
    const sockets = [connect(hub, 'session-a'), connect(hub, 'session-b')];
    hub.start();

    await vi.advanceTimersByTimeAsync(9_999);
    expect(sockets.map((s) => s.sent)).toEqual([[], []]);
    await vi.advanceTimersByTimeAsync(1);
    hub.broadcast('{"kind":"change","topic":"policy","invalidates":[]}');
    await vi.advanceTimersByTimeAsync(10_000);
    for (const { sent } of sockets) {
      expect(sent.map((f) => RelayFrameSchema.parse(JSON.parse(f)).kind)).toEqual([
        'heartbeat',
        'change',
        'heartbeat',
      ]);
    }
    hub.stop();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(sockets[0]?.sent).toHaveLength(3);
    expect(sockets.every((s) => s.isTerminated)).toBe(true);
  });

  it('cuts a socket that does not read, as any other frame would', async () => {
    const hub = createHub({
      maxBufferedBytes: 1024,
      pingIntervalMs: 30_000,
      heartbeatIntervalMs: 10_000,
      isSessionAlive: () => Promise.resolve(true),
    });
    const stalled = connect(hub, 'session-a');
    stalled.bufferedAmount = 4096;
    hub.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(stalled.closed).toEqual(RELAY_CLOSE.resume);
    expect(hub.size).toBe(0);
    hub.stop();
  });
});
