import {
  RELAY_CLOSE,
  RELAY_RESUME_PARAM,
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
      failures = 0;
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
      socket?.close(1000, 'closed by the console');
      socket = null;
      options.onState('closed');
    },
  };
}
