import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { ERROR_CODES, errorEnvelope, type ErrorCode, type RelayFrame } from '@settlement/protocol';
import { SLOW_CLIENT_CLOSE, eventFrame, upstreamFrame, type Hub } from '../relay/hub';
import type { Relay } from '../relay/relay';
import type { Services } from '../services/services';
import type { EventFeed } from '../cluster/feed';
import type { EventStore, StoredEvent } from '../store/events';
import { isSameOrigin, readCookie } from './guards';

const EVENTS_PATH = '/bff/events';
/** At most this many events replayed per connection; past it the socket asks to resume. */
const REPLAY_MAX = 2_000;

/** Sent when `after` names no stored event (unknown, or pruned): a replay cannot fill the gap. */
const RESYNC_FRAME = JSON.stringify({
  kind: 'resync',
  reason: 'resume-point-unknown',
} satisfies RelayFrame);

function refuse(socket: Duplex, code: ErrorCode, message: string): void {
  const { status } = ERROR_CODES[code];
  const body = JSON.stringify(errorEnvelope(code, 'bff_ws_upgrade', message));
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Bad Request'}\r\n` +
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
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });

  async function accept(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    after: string | null,
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
    const from = after === null ? null : await store.seqOf(after);
    const register = (replay: readonly StoredEvent[]) => {
      wss.handleUpgrade(req, socket, head, (ws) => {
        const frames = [upstreamFrame(relay.state)];
        // Streaming live from here would silently skip whatever happened since `after`.
        if (after !== null && from === null) frames.push(RESYNC_FRAME);
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

  return (req: IncomingMessage, socket: Duplex, head: Buffer): boolean => {
    const url = new URL(req.url ?? '/', 'http://bff.invalid');
    if (url.pathname !== EVENTS_PATH) return false;
    socket.on('error', () => undefined);
    if (!isSameOrigin(req)) {
      refuse(socket, 'FORBIDDEN', 'Cross-origin or origin-less WebSocket refused.');
      return true;
    }
    const after = url.searchParams.get('after');
    accept(req, socket, head, after).catch(() => {
      // The database failed mid-upgrade: the browser reconnects and resumes from its last id.
      socket.destroy();
    });
    return true;
  };
}
