import {
  RELAY_CLOSE,
  RELAY_RESUME_PARAM,
  RELAY_SILENCE_LIMIT_MS,
  RELAY_WITHIN_PARAM,
  RelayFrameSchema,
  WS_BACKOFF_DEFAULTS,
  fullJitterDelay,
  type RelayFrame,
  type SocketState,
} from '@settlement/protocol';

/**
 * One WebSocket to the BFF's relay (`/bff/events`), resumed from the last seen event id after
 * every reconnect. Frames are validated here; the app decides what they mean.
 */

export type { RelayFrame, RelayedEvent, SocketState, UpstreamState } from '@settlement/protocol';

export type EventsSocketOptions = {
  onFrame: (frame: RelayFrame) => void;
  onState: (state: SocketState) => void;
  /** Frames that fail validation; the socket stays open. */
  onInvalidFrame?: (raw: unknown) => void;
  /**
   * The relay closed with "session ended" (logout, expiry, revocation). The socket stays closed:
   * a reconnect would only be refused, so the app must sign the operator out instead.
   */
  onSessionEnded?: () => void;
  url?: (after: string | null) => string;
  random?: () => number;
  /**
   * How long the socket may stay silent (no handshake answer, no frame) before it is given up
   * and reconnected; the relay sends a heartbeat frame well within it.
   */
  silenceLimitMs?: number;
};

export type EventsSocket = {
  /** Records the id of an event the app has processed; reconnects resume after it. */
  markProcessed: (eventId: string) => void;
  close: () => void;
};

export const RESUME_CLOSE_CODE = RELAY_CLOSE.resume.code;
export const SESSION_ENDED_CLOSE_CODE = RELAY_CLOSE.sessionEnded.code;

function defaultEventsUrl(after: string | null): string {
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  // Without a position, the relay is told how long ago this page began reading (time since
  // navigation), and says `resync` if events arrived meanwhile.
  const query = after
    ? `?${RELAY_RESUME_PARAM}=${encodeURIComponent(after)}`
    : `?${RELAY_WITHIN_PARAM}=${String(Math.ceil(performance.now()))}`;
  return `${protocol}//${window.location.host}/bff/events${query}`;
}

export function connectEventsSocket(options: EventsSocketOptions): EventsSocket {
  const buildUrl = options.url ?? defaultEventsUrl;
  const random = options.random ?? Math.random;
  let lastEventId: string | null = null;
  let socket: WebSocket | null = null;
  /** Failed connections since the last open: the retry number of the next backoff. */
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let silenceTimer: ReturnType<typeof setTimeout> | null = null;
  let isClosed = false;
  const silenceLimitMs = options.silenceLimitMs ?? RELAY_SILENCE_LIMIT_MS;

  const stopWatching = () => {
    if (silenceTimer) clearTimeout(silenceTimer);
    silenceTimer = null;
  };
  /** (Re)starts the silence watch of `ws`: heard from, or just opened. */
  const watch = (ws: WebSocket) => {
    stopWatching();
    silenceTimer = setTimeout(() => {
      giveUp(ws);
    }, silenceLimitMs);
  };
  /**
   * A link gone silent may never deliver its close either (a hung server, a half-open TCP
   * connection): forget the socket at once and reconnect, as after an abnormal close.
   */
  function giveUp(ws: WebSocket) {
    if (socket !== ws) return;
    socket = null;
    silenceTimer = null;
    ws.onopen = null;
    ws.onmessage = null;
    ws.onclose = null;
    ws.close();
    failures += 1;
    schedule(fullJitterDelay(failures, WS_BACKOFF_DEFAULTS, random));
  }

  const schedule = (delay: number) => {
    if (isClosed) return;
    options.onState('reconnecting');
    timer = setTimeout(open, delay);
  };

  function open() {
    timer = null;
    if (isClosed) return;
    options.onState('connecting');
    const ws = new WebSocket(buildUrl(lastEventId));
    socket = ws;
    watch(ws);
    ws.onopen = () => {
      failures = 0;
      watch(ws);
      options.onState('open');
    };
    ws.onmessage = (message: MessageEvent) => {
      watch(ws);
      if (typeof message.data !== 'string') return;
      let raw: unknown;
      try {
        raw = JSON.parse(message.data);
      } catch {
        options.onInvalidFrame?.(message.data);
        return;
      }
      const parsed = RelayFrameSchema.safeParse(raw);
      if (!parsed.success) options.onInvalidFrame?.(raw);
      // A heartbeat only says the link is alive, which `watch` above has taken in.
      else if (parsed.data.kind !== 'heartbeat') options.onFrame(parsed.data);
    };
    ws.onclose = (event: CloseEvent) => {
      if (socket !== ws) return;
      socket = null;
      stopWatching();
      if (isClosed) return;
      if (event.code === SESSION_ENDED_CLOSE_CODE) {
        isClosed = true;
        options.onState('closed');
        options.onSessionEnded?.();
        return;
      }
      if (event.code === RESUME_CLOSE_CODE) {
        // The relay dropped us for being slow: resume from the last id straight away.
        schedule(0);
        return;
      }
      failures += 1;
      schedule(fullJitterDelay(failures, WS_BACKOFF_DEFAULTS, random));
    };
  }

  open();

  return {
    markProcessed(eventId) {
      lastEventId = eventId;
    },
    close() {
      isClosed = true;
      if (timer) clearTimeout(timer);
      stopWatching();
      socket?.close(1000, 'closed by the console');
      socket = null;
      options.onState('closed');
    },
  };
}
