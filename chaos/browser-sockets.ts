import WebSocket from 'ws';
import { RELAY_CLOSE, RELAY_RESUME_PARAM, RelayFrameSchema } from '@settlement/protocol';

/**
 * A browser tab's event socket on GET /bff/events: it keeps the id of the last event it
 * processed, drops an id it already has (dedupe), and on any close reconnects with ?after=<last
 * id>, as the console does. Faults can cut it, stall it (stop reading) or slow it (read in short
 * bursts). What it saw is checked against the BFF's event store at the end.
 */

export type BrowserSocket = {
  name: string;
  /** Event ids in the order first seen (after dedupe). */
  seen: string[];
  /** Where this tab started: it must see every event stored after this id. */
  startAfter: string;
  duplicates: number;
  resyncs: number;
  connects: number;
  sessionEnds: number;
  problems: string[];
  lastId(): string;
  drop(): void;
  stall(durationMs: number): void;
  slow(durationMs: number): void;
  close(): void;
};

export function openBrowserSocket(input: {
  name: string;
  /** The BFF to (re)connect to; with replicas, whichever the balancer picks this time. */
  url: () => string;
  cookie: () => string | null;
  startAfter: string;
}): BrowserSocket {
  const seen: string[] = [];
  const known = new Set<string>();
  let ws: WebSocket | null = null;
  let isClosed = false;
  let slowTimer: NodeJS.Timeout | null = null;
  let reconnectTimer: NodeJS.Timeout | null = null;

  const state: BrowserSocket = {
    name: input.name,
    seen,
    startAfter: input.startAfter,
    duplicates: 0,
    resyncs: 0,
    connects: 0,
    sessionEnds: 0,
    problems: [],
    lastId: () => seen[seen.length - 1] ?? input.startAfter,
    drop() {
      ws?.terminate();
    },
    stall(durationMs) {
      // The OS stops reading for us: the BFF's buffer for this socket grows until it gives up.
      ws?.pause();
      setTimeout(() => ws?.resume(), durationMs).unref();
    },
    slow(durationMs) {
      const until = Date.now() + durationMs;
      if (slowTimer) clearInterval(slowTimer);
      let isPaused = false;
      slowTimer = setInterval(() => {
        if (Date.now() > until) {
          if (slowTimer) clearInterval(slowTimer);
          slowTimer = null;
          ws?.resume();
          return;
        }
        isPaused = !isPaused;
        if (isPaused) ws?.pause();
        else ws?.resume();
      }, 150);
      slowTimer.unref();
    },
    close() {
      isClosed = true;
      if (slowTimer) clearInterval(slowTimer);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      ws?.terminate();
    },
  };

  const onFrame = (data: Buffer) => {
    let parsed;
    try {
      parsed = RelayFrameSchema.safeParse(JSON.parse(data.toString('utf8')));
    } catch {
      state.problems.push(`${input.name}: a frame that is not JSON`);
      return;
    }
    if (!parsed.success) {
      state.problems.push(`${input.name}: a frame outside the relay contract`);
      return;
    }
    const frame = parsed.data;
    if (frame.kind === 'resync') state.resyncs += 1;
    if (frame.kind !== 'event') return;
    const { id } = frame.event;
    if (known.has(id)) {
      state.duplicates += 1;
      return;
    }
    known.add(id);
    seen.push(id);
  };

  const connect = () => {
    if (isClosed) return;
    // With replicas each connect may reach another one (a load balancer's choice): one URL
    // for both the socket and its Origin.
    const httpUrl = input.url();
    const url = new URL('/bff/events', httpUrl.replace(/^http/, 'ws'));
    url.searchParams.set(RELAY_RESUME_PARAM, state.lastId());
    const cookie = input.cookie();
    const socket = new WebSocket(url, {
      headers: { origin: httpUrl, ...(cookie ? { cookie } : {}) },
    });
    ws = socket;
    socket.on('open', () => {
      state.connects += 1;
    });
    socket.on('message', onFrame);
    socket.on('error', () => undefined);
    socket.on('close', (code) => {
      if (code === RELAY_CLOSE.sessionEnded.code) state.sessionEnds += 1;
      if (isClosed) return;
      // Full jitter, short: the campaign wants many resumes, not long waits.
      reconnectTimer = setTimeout(connect, 50 + Math.floor(Math.random() * 300));
    });
  };
  connect();
  return state;
}
