import WebSocket from 'ws';
import {
  BoundedIdSet,
  WS_BACKOFF_DEFAULTS,
  fullJitterDelay,
  normalizeEvent,
  type BackoffOptions,
  type SocketState,
  type EventRejectionReason,
  type NormalizedEvent,
  type SystemEvent,
} from '@settlement/protocol';
import { signWsHandshake, type Signer } from '@settlement/protocol/signing';

export type EventRejection = { reason: EventRejectionReason; detail: string; raw: unknown };

export type EventStreamOptions = {
  /** The WebSocket address, e.g. ws://127.0.0.1:4010/v1/ws. */
  wsUrl: string;
  signer: Signer;
  expectedOrgId: string;
  /** Called once per event id, in arrival order; the next event waits for its promise. */
  onEvent: (event: NormalizedEvent) => void | Promise<void>;
  onState?: (state: SocketState, detail: { error: string | null; attempt: number }) => void;
  onSystem?: (event: SystemEvent) => void;
  /** Foreign-org, malformed or invalid frames: never passed to onEvent. */
  onRejected?: (rejection: EventRejection) => void;
  /** A redelivery of an id already processed (it may carry a newer envelope, e.g. a sequence). */
  onDuplicate?: (event: NormalizedEvent) => void;
  /** A processing error of onEvent; the event is not marked seen, so a redelivery retries it. */
  onError?: (error: unknown) => void;
  /** Where to resume on every (re)connect, sent as `?resumeAfter=`; null starts live. */
  resumeAfter?: () => string | null;
  backoff?: BackoffOptions;
  pingIntervalMs?: number;
  dedupeCapacity?: number;
  /** Frames waiting for onEvent; past this the socket is dropped and resumed later. */
  maxQueuedFrames?: number;
  random?: () => number;
};

export type EventStream = {
  readonly state: SocketState;
  /** Drops the current socket (as a network fault would); the stream reconnects. */
  dropConnection(): void;
  close(): Promise<void>;
};

function resumeUrl(wsUrl: string, resumeAfter: string | null): string {
  if (resumeAfter === null) return wsUrl;
  const url = new URL(wsUrl);
  url.searchParams.set('resumeAfter', resumeAfter);
  return url.toString();
}

/**
 * One signed, self-healing listener: four-line handshake headers on the upgrade, heartbeat,
 * reconnect with full jitter, normalization (orgId check, required fields), dedupe by id.
 */
export function connectEventStream(options: EventStreamOptions): EventStream {
  const backoff = options.backoff ?? WS_BACKOFF_DEFAULTS;
  const pingIntervalMs = options.pingIntervalMs ?? 30_000;
  const maxQueued = options.maxQueuedFrames ?? 10_000;
  const seen = new BoundedIdSet(options.dedupeCapacity ?? 50_000);
  let state: SocketState = 'connecting';
  let socket: WebSocket | null = null;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let failures = 0;
  let isStopped = false;
  let queue: Promise<void> = Promise.resolve();
  let queued = 0;

  const setState = (next: SocketState, error: string | null = null) => {
    if (state === next && error === null) return;
    state = next;
    options.onState?.(next, { error, attempt: failures });
  };

  async function handle(frame: string): Promise<void> {
    const result = normalizeEvent(frame, { expectedOrgId: options.expectedOrgId });
    if (!result.ok) {
      options.onRejected?.({ reason: result.reason, detail: result.detail, raw: result.raw });
      return;
    }
    const { event } = result;
    if (event.kind === 'system') {
      if (event.type === 'system.connected') {
        failures = 0;
        setState('open');
      }
      options.onSystem?.(event);
      return;
    }
    if (state !== 'open') setState('open');
    if (seen.has(event.id)) {
      options.onDuplicate?.(event);
      return;
    }
    try {
      await options.onEvent(event);
      seen.addIfNew(event.id);
    } catch (error) {
      options.onError?.(error);
    }
  }

  function scheduleReconnect(error: string | null): void {
    if (isStopped || reconnectTimer) return;
    failures += 1;
    setState('reconnecting', error);
    reconnectTimer = setTimeout(
      () => {
        reconnectTimer = null;
        open();
      },
      fullJitterDelay(failures, backoff, options.random),
    );
  }

  function open(): void {
    if (isStopped) return;
    const url = resumeUrl(options.wsUrl, options.resumeAfter?.() ?? null);
    const ws = new WebSocket(url, {
      headers: { ...signWsHandshake(options.signer) },
      handshakeTimeout: 10_000,
      maxPayload: 1024 * 1024,
    });
    socket = ws;
    let isAlive = true;
    let lastError: string | null = null;
    const heartbeat = setInterval(() => {
      if (!isAlive) {
        lastError = 'heartbeat timeout';
        ws.terminate();
        return;
      }
      isAlive = false;
      ws.ping();
    }, pingIntervalMs);
    heartbeat.unref();

    ws.on('pong', () => {
      isAlive = true;
    });
    ws.on('message', (data, isBinary) => {
      isAlive = true;
      if (isBinary) {
        options.onRejected?.({ reason: 'not-json', detail: 'binary frame', raw: null });
        return;
      }
      if (queued >= maxQueued) {
        lastError = 'ingress queue full';
        ws.terminate();
        return;
      }
      const text = Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Buffer.from(data as ArrayBuffer).toString('utf8');
      queued += 1;
      queue = queue
        .then(() => handle(text))
        .finally(() => {
          queued -= 1;
        });
    });
    ws.on('error', (error) => {
      lastError = error.message;
    });
    ws.on('close', (code) => {
      clearInterval(heartbeat);
      if (socket === ws) socket = null;
      if (isStopped) return;
      scheduleReconnect(lastError ?? `closed with code ${code}`);
    });
  }

  open();

  return {
    get state() {
      return state;
    },
    dropConnection() {
      socket?.terminate();
    },
    async close() {
      isStopped = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      const current = socket;
      if (current && current.readyState !== WebSocket.CLOSED) {
        await new Promise<void>((resolve) => {
          current.once('close', () => {
            resolve();
          });
          if (current.readyState === WebSocket.CONNECTING) current.terminate();
          else current.close(1000, 'client closing');
        });
      }
      await queue;
      setState('closed');
    },
  };
}
