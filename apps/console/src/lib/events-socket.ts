import {
  RELAY_CLOSE,
  RELAY_RESUME_PARAM,
  RelayFrameSchema,
  type RelayFrame,
} from '@settlement/protocol';

/**
 * One WebSocket to the BFF's relay (`/bff/events`), resumed from the last seen event id after
 * every reconnect. Frames are validated here; the app decides what they mean.
 */

export { RelayFrameSchema, UPSTREAM_STATES } from '@settlement/protocol';
export type { RelayFrame, RelayedEvent, UpstreamState } from '@settlement/protocol';

/** The browser's link to the BFF: connecting, open, or waiting to reconnect. */
export type SocketState = 'connecting' | 'open' | 'reconnecting' | 'closed';

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
};

export type EventsSocket = {
  /** Records the id of an event the app has processed; reconnects resume after it. */
  markProcessed: (eventId: string) => void;
  close: () => void;
};

const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 30_000;
export const RESUME_CLOSE_CODE = RELAY_CLOSE.resume.code;
export const SESSION_ENDED_CLOSE_CODE = RELAY_CLOSE.sessionEnded.code;

/** Full jitter: a random delay between 0 and min(cap, base * 2^attempt). */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 16));
  return Math.floor(random() * ceiling);
}

export function defaultEventsUrl(after: string | null): string {
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = after ? `?${RELAY_RESUME_PARAM}=${encodeURIComponent(after)}` : '';
  return `${protocol}//${window.location.host}/bff/events${query}`;
}

export function connectEventsSocket(options: EventsSocketOptions): EventsSocket {
  const buildUrl = options.url ?? defaultEventsUrl;
  const random = options.random ?? Math.random;
  let lastEventId: string | null = null;
  let socket: WebSocket | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let isClosed = false;

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
    ws.onopen = () => {
      attempt = 0;
      options.onState('open');
    };
    ws.onmessage = (message: MessageEvent) => {
      if (typeof message.data !== 'string') return;
      let raw: unknown;
      try {
        raw = JSON.parse(message.data);
      } catch {
        options.onInvalidFrame?.(message.data);
        return;
      }
      const parsed = RelayFrameSchema.safeParse(raw);
      if (parsed.success) options.onFrame(parsed.data);
      else options.onInvalidFrame?.(raw);
    };
    ws.onclose = (event: CloseEvent) => {
      if (socket !== ws) return;
      socket = null;
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
      schedule(reconnectDelay(attempt++, random));
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
      socket?.close(1000, 'closed by the console');
      socket = null;
      options.onState('closed');
    },
  };
}
