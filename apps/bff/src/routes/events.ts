import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import {
  ERROR_CODES,
  RELAY_RESUME_PARAM,
  RELAY_WITHIN_PARAM,
  errorEnvelope,
  type ErrorCode,
  type RelayFrame,
} from '@settlement/protocol';
import { SLOW_CLIENT_CLOSE, eventFrame, upstreamFrame, type Hub } from '../relay/hub';
import type { Relay } from '../relay/relay';
import type { Services } from '../services/services';
import type { EventFeed } from '../cluster/feed';
import type { EventStore, StoredEvent } from '../store/events';
import { HttpError, isStorageUnavailable, storageUnavailable } from '../errors';
import { isSameOrigin, readCookie } from './guards';

const EVENTS_PATH = '/bff/events';
/** At most this many events replayed per connection; past it the socket asks to resume. */
const REPLAY_MAX = 2_000;

/** Sent when `after` names no stored event (unknown, or pruned): a replay cannot fill the gap. */
const RESYNC_FRAME = JSON.stringify({
  kind: 'resync',
  reason: 'resume-point-unknown',
} satisfies RelayFrame);

/** Sent to a browser without a position when events arrived while it was reading its page. */
const EVENTS_BEFORE_OPEN_FRAME = JSON.stringify({
  kind: 'resync',
  reason: 'events-before-open',
} satisfies RelayFrame);

/**
 * Added to `within`: the page's reads and this check are on different clocks (the leader stamps
 * `received_at`), and a resync too many costs one refetch where one too few shows stale money.
 */
const WITHIN_MARGIN_MS = 2_000;

const DAY_MS = 86_400_000;

/**
 * A `within` is at most 13 digits (~317 years): any page age a browser can send. A
 * tab open for 12 days sends ten digits, and refusing it would refuse its socket for good.
 */
const WITHIN_PATTERN = /^\d{1,13}$/;

function refuse(socket: Duplex, code: ErrorCode, message: string): void {
  const { status } = ERROR_CODES[code];
  const body = JSON.stringify(errorEnvelope(code, 'bff_ws_upgrade', message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * GET /bff/events (WebSocket): session cookie and same-origin Origin required. Replays the
 * stored events after `?after=<event id>` (or, for an id it does not hold, sends a `resync`
 * frame so the browser reloads from REST), then streams live; replay and registration happen
 * in one synchronous step, so no event is skipped or sent twice in between.
 */
export function eventsUpgradeHandler(deps: {
  services: Services;
  hub: Hub;
  store: EventStore;
  relay: Relay;
  feed: EventFeed;
}) {
  const { services, hub, store, relay, feed } = deps;
  const { logger } = services;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });

  async function accept(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    after: string | null,
    within: string | null,
    upgraded: { isDone: boolean },
  ): Promise<void> {
    const sessionId = readCookie(req, services.config.cookieName);
    const session = sessionId ? await services.sessions.resolve(sessionId) : null;
    if (!session) {
      refuse(socket, 'UNAUTHENTICATED', 'Sign in first (or the session expired).');
      return;
    }
    if (after !== null && !/^[\x21-\x7e]{1,256}$/.test(after)) {
      refuse(socket, 'INVALID_QUERY_PARAMETER', 'after must be an event id.');
      return;
    }
    if (within !== null && !WITHIN_PATTERN.test(within)) {
      refuse(socket, 'INVALID_QUERY_PARAMETER', 'within must be a number of milliseconds.');
      return;
    }
    const from = after === null ? null : await store.seqOf(after);
    // Anything the page read before this socket joined may predate these events: it rereads.
    // The store answers for any window its retention still holds (one look-up on the
    // `received_at` index, whatever the window); a page older than that always rereads.
    const windowMs = within === null ? null : Number(within) + WITHIN_MARGIN_MS;
    const isStaleSinceOpen =
      after === null &&
      windowMs !== null &&
      (windowMs > services.config.eventRetentionDays * DAY_MS ||
        (await store.hasReceivedSince(services.now() - windowMs)));
    const register = (replay: readonly StoredEvent[]) => {
      upgraded.isDone = true;
      wss.handleUpgrade(req, socket, head, (ws) => {
        const frames = [upstreamFrame(relay.state)];
        // Streaming live from here would silently skip whatever happened since `after`.
        if (after !== null && from === null) frames.push(RESYNC_FRAME);
        if (isStaleSinceOpen) frames.push(EVENTS_BEFORE_OPEN_FRAME);
        for (const event of replay.slice(0, REPLAY_MAX)) frames.push(eventFrame(event));
        hub.add(ws, socket, session.idHash, frames);
        if (replay.length > REPLAY_MAX) ws.close(SLOW_CLIENT_CLOSE.code, SLOW_CLIENT_CLOSE.reason);
      });
    };
    // The replay reaches up to what the feed has handed the hub, and the socket joins the hub
    // in the same synchronous step: nothing committed meanwhile is skipped or sent twice.
    if (from === null) register([]);
    else await feed.replayThen(from, REPLAY_MAX, register);
  }

  /**
   * The upgrade failed for a reason of ours (the database above all: disk full, busy, gone).
   * Never thrown on: an error escaping an 'upgrade' listener would end the process. Before the
   * handshake the browser gets a 503 (or 500) and reconnects later, resuming from its last id.
   */
  const fail = (socket: Duplex, error: unknown, upgraded: { isDone: boolean }) => {
    const isStorage = isStorageUnavailable(error);
    if (isStorage) logger.warn({ err: error }, 'event socket refused: storage unavailable');
    else logger.error({ err: error }, 'event socket upgrade failed');
    if (upgraded.isDone || socket.destroyed) {
      socket.destroy();
      return;
    }
    const refusal = isStorage
      ? storageUnavailable()
      : new HttpError('INTERNAL_ERROR', 'The event socket could not be opened. Retry shortly.');
    refuse(socket, refusal.code, refusal.message);
  };

  /** True when the request was for the event socket (answered or being answered). */
  return (req: IncomingMessage, socket: Duplex, head: Buffer): boolean => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://bff.invalid');
    } catch {
      // A request target not even a URL relative to us (e.g. `http://[`): nothing we serve.
      return false;
    }
    if (url.pathname !== EVENTS_PATH) return false;
    socket.on('error', () => undefined);
    if (!isSameOrigin(req, services.config.publicOrigin)) {
      refuse(socket, 'FORBIDDEN', 'Cross-origin or origin-less WebSocket refused.');
      return true;
    }
    const upgraded = { isDone: false };
    // accept is async: whatever it throws (the session look-up on a full disk) is a rejection.
    const { searchParams } = url;
    accept(
      req,
      socket,
      head,
      searchParams.get(RELAY_RESUME_PARAM),
      searchParams.get(RELAY_WITHIN_PARAM),
      upgraded,
    ).catch((error: unknown) => {
      fail(socket, error, upgraded);
    });
    return true;
  };
}
