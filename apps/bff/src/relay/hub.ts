import type { Duplex } from 'node:stream';
import WebSocket from 'ws';
import {
  RELAY_CLOSE,
  RELAY_HEARTBEAT_MS,
  resourcePathsFor,
  type RelayFrame,
  type UpstreamState,
} from '@settlement/protocol';
import type { StoredEvent } from '../store/events';
import { textFrame } from './text-frame';

export type { UpstreamState };

/** Close code and reason a browser gets when it cannot keep up: reconnect with ?after=. */
export const SLOW_CLIENT_CLOSE = RELAY_CLOSE.resume;
const SESSION_END_CLOSE = RELAY_CLOSE.sessionEnded;

/** The frame of one event, serialized once and sent as the same bytes to every socket. */
export function eventFrame(event: StoredEvent): string {
  return JSON.stringify({
    kind: 'event',
    event: {
      id: event.id,
      type: event.type,
      occurredAt: event.occurredAt,
      correlationId: event.correlationId,
      orgId: event.orgId,
      data: event.data,
      sequence: event.sequence,
    },
    invalidates: resourcePathsFor({ type: event.type, data: event.data }),
  } satisfies RelayFrame);
}

export function upstreamFrame(state: UpstreamState): string {
  return JSON.stringify({ kind: 'upstream', state } satisfies RelayFrame);
}

/**
 * `transport` is the socket under the WebSocket (from the upgrade), corked around a batch.
 * `isPlain`: no extension was negotiated, so the shared frame bytes can go straight to it.
 */
type Client = {
  socket: WebSocket;
  transport: Duplex;
  sessionHash: string;
  isAlive: boolean;
  isPlain: boolean;
};

const HEARTBEAT_FRAME = JSON.stringify({ kind: 'heartbeat' } satisfies RelayFrame);

/**
 * How often the sessions behind open sockets are checked. Expiry and revocation (possibly by
 * another BFF process on the same database) have no event of their own, so a socket of an
 * ended session is closed within this period rather than at the next 30 s heartbeat.
 */
export const SESSION_CHECK_INTERVAL_MS = 1_000;

export type HubOptions = {
  /** Per-socket bound of queued bytes; past it the socket is closed with 4008 "resume". */
  maxBufferedBytes: number;
  pingIntervalMs: number;
  /** Defaults to SESSION_CHECK_INTERVAL_MS. */
  sessionCheckIntervalMs?: number;
  /** How often every socket gets a `heartbeat` frame; defaults to RELAY_HEARTBEAT_MS. */
  heartbeatIntervalMs?: number;
  isSessionAlive: (sessionHash: string) => Promise<boolean>;
};

/** Browser sockets of GET /bff/events: bounded per-socket buffers, heartbeat, session checks. */
export function createHub(options: HubOptions) {
  const clients = new Set<Client>();
  let timer: NodeJS.Timeout | null = null;
  let sessionTimer: NodeJS.Timeout | null = null;
  let heartbeatTimer: NodeJS.Timeout | null = null;

  function drop(client: Client, close: { code: number; reason: string }): void {
    if (!clients.delete(client)) return;
    client.socket.close(close.code, close.reason);
    // A peer that does not read may never take the close frame: cut it after a grace period.
    setTimeout(() => {
      client.socket.terminate();
    }, 1_000).unref();
  }

  /** `message` is the payload, `framed` the same as a whole WebSocket frame (textFrame). */
  function send(client: Client, message: { payload: string; framed: Buffer }): void {
    if (client.socket.readyState !== WebSocket.OPEN) return;
    // Bounded: at most maxBufferedBytes queued plus the frame being sent. The transport's
    // queue counts in bufferedAmount, so frames written straight to it are bounded alike.
    if (client.socket.bufferedAmount > options.maxBufferedBytes) {
      drop(client, SLOW_CLIENT_CLOSE);
      return;
    }
    // Straight to the TCP socket: ws itself writes whole frames to it at once (pings, close)
    // and queues nothing of its own without an extension. Were one negotiated (compression),
    // the frame must be ws's own.
    if (client.isPlain) client.transport.write(message.framed);
    else client.socket.send(message.payload, { binary: false });
  }

  /** The frames of one tick leave in one write per socket (corked), not one write per frame. */
  function sendAll(client: Client, messages: readonly { payload: string; framed: Buffer }[]): void {
    client.transport.cork();
    try {
      for (const message of messages) send(client, message);
    } finally {
      client.transport.uncork();
    }
  }

  const encode = (frames: readonly string[]) =>
    frames.map((payload) => ({ payload, framed: textFrame(payload) }));

  /** Closes the sockets of every ended session; each session is looked up once per check. */
  async function closeEndedSessions(): Promise<void> {
    const isAlive = new Map<string, Promise<boolean>>();
    for (const client of clients) {
      let alive = isAlive.get(client.sessionHash);
      if (alive === undefined) {
        alive = options.isSessionAlive(client.sessionHash);
        isAlive.set(client.sessionHash, alive);
      }
      if (!(await alive)) drop(client, SESSION_END_CLOSE);
    }
  }

  return {
    /** Registers a socket and sends it the given frames first (replay), in the same tick. */
    add(socket: WebSocket, transport: Duplex, sessionHash: string, first: readonly string[]): void {
      // Extensions are settled by the handshake; ws's getter builds a string on every read
      // (once per socket per frame: 100,000 times a second at 1,000 sockets and 100 ev/s).
      const client: Client = {
        socket,
        transport,
        sessionHash,
        isAlive: true,
        isPlain: socket.extensions === '',
      };
      clients.add(client);
      socket.on('pong', () => {
        client.isAlive = true;
      });
      socket.on('close', () => {
        clients.delete(client);
      });
      socket.on('error', () => {
        clients.delete(client);
      });
      socket.on('message', () => {
        // Browsers only listen; anything they send is ignored (frames are capped at 64 KiB).
      });
      sendAll(client, encode(first));
    },
    /**
     * Each frame encoded once: the same bytes go to every socket as TEXT frames, all frames of
     * the call in one write per socket.
     */
    broadcast(...frames: string[]): void {
      if (frames.length === 0 || clients.size === 0) return;
      const messages = encode(frames);
      for (const client of clients) sendAll(client, messages);
    },
    /** Closes every socket of a session (logout). */
    closeSession(sessionHash: string): void {
      for (const client of clients)
        if (client.sessionHash === sessionHash) drop(client, SESSION_END_CLOSE);
    },
    get size(): number {
      return clients.size;
    },
    start(): void {
      if (timer) return;
      // Heartbeat: a socket that did not answer the previous ping is dead.
      timer = setInterval(() => {
        for (const client of clients) {
          if (!client.isAlive) {
            clients.delete(client);
            client.socket.terminate();
            continue;
          }
          client.isAlive = false;
          client.socket.ping();
        }
      }, options.pingIntervalMs);
      timer.unref();
      sessionTimer = setInterval(() => {
        // A failed look-up (the database briefly away) closes nothing; the next check retries.
        closeEndedSessions().catch(() => undefined);
      }, options.sessionCheckIntervalMs ?? SESSION_CHECK_INTERVAL_MS);
      sessionTimer.unref();
      // Sent whether or not events flowed: one encoded frame for all, bounded like any other.
      const heartbeat = encode([HEARTBEAT_FRAME]);
      heartbeatTimer = setInterval(() => {
        for (const client of clients) sendAll(client, heartbeat);
      }, options.heartbeatIntervalMs ?? RELAY_HEARTBEAT_MS);
      heartbeatTimer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
      if (sessionTimer) clearInterval(sessionTimer);
      if (heartbeatTimer) clearInterval(heartbeatTimer);
      timer = null;
      sessionTimer = null;
      heartbeatTimer = null;
      for (const client of clients) client.socket.terminate();
      clients.clear();
    },
  };
}

export type Hub = ReturnType<typeof createHub>;
