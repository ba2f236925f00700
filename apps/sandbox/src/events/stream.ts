import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { ERROR_CODES, errorEnvelope, LEGACY_CONNECTED } from '@settlement/protocol';
import { WS_PATH } from '@settlement/protocol/signing';
import type { AppContext, BackgroundService } from '../context';
import { HttpError } from '../errors';
import { getFaults, type Faults } from '../domain/faults';
import type { Authenticator, Principal } from '../http/auth';
import { groupCommitOf } from '../store/group-commit';
import {
  eventsAfter,
  lastPosition,
  orgEventsAfterSequence,
  orgSequenceOfEvent,
  type RelayedEvent,
} from './outbox';

/** Frames larger than this from a client close the socket (DESIGN.md: 64 KiB). */
const MAX_CLIENT_FRAME_BYTES = 64 * 1024;
/** A socket whose unsent buffer passes this is closed with a resume hint. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** At most this many events replayed for `?resumeAfter=`; the client resumes again for more. */
const RESUME_MAX_EVENTS = 10_000;
const POLL_BATCH = 1000;
const SUB_ID = 'default';

type Client = {
  socket: WebSocket;
  /** The TCP socket under `socket` (from the upgrade): corked around a poll's deliveries. */
  transport: Duplex;
  orgId: string;
  keyId: string;
  connectedAt: number;
  isAlive: boolean;
  lastSequence: number;
};

export type StreamOptions = { pingIntervalMs: number; pollMs: number };

export type EventStream = {
  attach: (server: Server) => void;
  service: BackgroundService;
  /** Connected sockets (tests, metrics). */
  clientCount: () => number;
};

/**
 * A frame's JSON with `data` last, spliced in as the JSON text the outbox stored. That text is
 * JSON.stringify's own output, so the frame's bytes are those of stringifying the parsed data,
 * without parsing and serializing every event's data again (stream.test.ts compares them).
 */
function withData(head: Record<string, unknown>, dataJson: string): string {
  return `${JSON.stringify(head).slice(0, -1)},"data":${dataJson}}`;
}

function mvpFrame(event: RelayedEvent): string {
  return withData(
    {
      type: 'EVENT',
      event: event.type,
      eventId: event.id,
      version: 1,
      orgId: event.orgId,
      occurredAt: event.occurredAt,
      correlationId: event.correlationId,
    },
    event.dataJson,
  );
}

function topicFrame(event: RelayedEvent): string {
  return withData(
    {
      op: 'event',
      subId: SUB_ID,
      id: event.id,
      sequence: event.sequence,
      subject: event.type,
      occurredAt: event.occurredAt,
      orgId: event.orgId,
      correlationId: event.correlationId,
      version: 1,
    },
    event.dataJson,
  );
}

/** The frames of one event in the envelope(s) the org's `envelope` switch selects. */
function framesFor(event: RelayedEvent, envelope: Faults['envelope'], cache: Map<string, string>) {
  const frames: string[] = [];
  const pick = (kind: 'mvp' | 'topic') => {
    const key = `${kind}:${event.id}`;
    let frame = cache.get(key);
    if (frame === undefined) {
      frame = kind === 'mvp' ? mvpFrame(event) : topicFrame(event);
      cache.set(key, frame);
    }
    frames.push(frame);
  };
  if (envelope !== 'topic') pick('mvp');
  if (envelope !== 'mvp') pick('topic');
  return frames;
}

function connectedFrames(principal: Principal, faults: Faults, now: Date): string[] {
  if (faults.legacyConnectedEvent) {
    return [JSON.stringify({ type: LEGACY_CONNECTED, orgId: principal.orgId })];
  }
  const data = { keyId: principal.keyId, subId: SUB_ID };
  const occurredAt = now.toISOString();
  const frames: string[] = [];
  if (faults.envelope !== 'topic') {
    frames.push(
      JSON.stringify({
        type: 'EVENT',
        event: 'system.connected',
        version: 1,
        orgId: principal.orgId,
        occurredAt,
        data,
      }),
    );
  }
  if (faults.envelope !== 'mvp') {
    frames.push(
      JSON.stringify({
        op: 'event',
        subId: SUB_ID,
        subject: 'system.connected',
        version: 1,
        orgId: principal.orgId,
        occurredAt,
        data,
      }),
    );
  }
  return frames;
}

/** The answer to any client message: this stream takes none (resume is `?resumeAfter=`). */
function systemErrorFrame(orgId: string, now: Date): string {
  return JSON.stringify({
    type: 'EVENT',
    event: 'system.error',
    version: 1,
    orgId,
    occurredAt: now.toISOString(),
    data: {
      code: 'VALIDATION_ERROR',
      message: 'This stream accepts no client messages; resume with ?resumeAfter=<sequence>.',
    },
  });
}

/** Writes a plain HTTP error (the interface's envelope) on an upgrade socket and closes it. */
function rejectUpgrade(socket: Duplex, error: HttpError): void {
  const requestId = randomUUID();
  const body = JSON.stringify(errorEnvelope(error.code, requestId, error.message, error.details));
  const reason =
    error.status === 401 ? 'Unauthorized' : error.status === 403 ? 'Forbidden' : 'Error';
  socket.end(
    `HTTP/1.1 ${error.status} ${reason}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

type ResumePoint = { sequence: number } | { eventId: string };

/**
 * `?resumeAfter=` names the last event a client holds: a topic `sequence`, or an event id,
 * so clients of the MVP envelope (which carries no sequence) can resume too.
 */
function parseResumeAfter(url: URL): ResumePoint | null {
  const values = url.searchParams.getAll('resumeAfter');
  if (values.length === 0) return null;
  const value = values[0] ?? '';
  if (values.length === 1 && /^(0|[1-9][0-9]{0,14})$/.test(value)) {
    return { sequence: Number(value) };
  }
  if (values.length === 1 && /^[\x21-\x7e]{1,128}$/.test(value)) return { eventId: value };
  throw new HttpError(
    'INVALID_QUERY_PARAMETER',
    'resumeAfter must be a non-negative integer sequence or an event id.',
  );
}

/**
 * The event stream at /v1/ws. Authenticates the upgrade (four-line signature, scope
 * websockets:read), sends system.connected, optionally replays the outbox after a sequence,
 * then relays every committed outbox event of the org by polling the outbox in commit order.
 */
export function createEventStream(
  ctx: AppContext,
  authenticator: Authenticator,
  options: StreamOptions,
  random: () => number = Math.random,
): EventStream {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_FRAME_BYTES });
  const clients = new Set<Client>();
  let position = lastPosition(ctx.db);
  let pollTimer: NodeJS.Timeout | undefined;
  let pingTimer: NodeJS.Timeout | undefined;

  function send(client: Client, frame: string): void {
    if (client.socket.readyState !== client.socket.OPEN) return;
    if (client.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      client.socket.close(1013, `slow consumer; resumeAfter=${client.lastSequence}`);
      return;
    }
    client.socket.send(frame);
  }

  function deliver(
    client: Client,
    event: RelayedEvent,
    faults: Faults,
    cache: Map<string, string>,
  ) {
    const frames = framesFor(event, faults.envelope, cache);
    for (const frame of frames) send(client, frame);
    if (faults.duplicateEventRate > 0 && random() < faults.duplicateEventRate) {
      for (const frame of frames) send(client, frame);
    }
    client.lastSequence = Math.max(client.lastSequence, event.sequence);
  }

  function poll(): void {
    // Only committed events are delivered: the requests' open group commit commits first.
    groupCommitOf(ctx.db).flush();
    if (clients.size === 0) {
      position = lastPosition(ctx.db);
      return;
    }
    const faultsByOrg = new Map<string, Faults>();
    const faultsOf = (orgId: string) => {
      let faults = faultsByOrg.get(orgId);
      if (!faults) {
        faults = getFaults(ctx.db, orgId);
        faultsByOrg.set(orgId, faults);
      }
      return faults;
    };
    const now = ctx.nowMs();
    for (const client of clients) {
      const dropEvery = faultsOf(client.orgId).dropSocketEveryMs;
      if (dropEvery !== null && now - client.connectedAt >= dropEvery) {
        client.socket.terminate();
      }
    }
    // A poll's frames leave in one write per socket, not one write per frame: under a burst
    // of withdrawals (9 events each) the per-frame writes were ~5% of the sandbox's CPU.
    const corked = [...clients];
    for (const client of corked) client.transport.cork();
    try {
      for (;;) {
        const batch = eventsAfter(ctx.db, position, POLL_BATCH);
        if (batch.length === 0) break;
        const cache = new Map<string, string>();
        for (const event of batch) {
          for (const client of clients) {
            if (client.orgId === event.orgId) deliver(client, event, faultsOf(event.orgId), cache);
          }
          position = event.position;
        }
        if (batch.length < POLL_BATCH) break;
      }
    } finally {
      for (const client of corked) client.transport.uncork();
    }
  }

  function onConnection(
    socket: WebSocket,
    transport: Duplex,
    principal: Principal,
    resumeAfter: number | null,
  ) {
    const client: Client = {
      socket,
      transport,
      orgId: principal.orgId,
      keyId: principal.keyId,
      connectedAt: ctx.nowMs(),
      isAlive: true,
      lastSequence: resumeAfter ?? 0,
    };
    clients.add(client);
    socket.on('pong', () => {
      client.isAlive = true;
    });
    socket.on('close', () => {
      clients.delete(client);
    });
    socket.on('error', (error) => {
      ctx.logger.warn({ err: error, orgId: client.orgId }, 'event stream socket error');
    });
    socket.on('message', () => {
      // Server-to-client only: subscribe/ack/resume messages are not part of this version.
      send(client, systemErrorFrame(principal.orgId, new Date(ctx.nowMs())));
    });
    const faults = getFaults(ctx.db, principal.orgId);
    for (const frame of connectedFrames(principal, faults, new Date(ctx.nowMs()))) {
      send(client, frame);
    }
    if (resumeAfter !== null) {
      const cache = new Map<string, string>();
      const replay = orgEventsAfterSequence(
        ctx.db,
        principal.orgId,
        resumeAfter,
        position,
        RESUME_MAX_EVENTS,
      );
      for (const event of replay) deliver(client, event, faults, cache);
    }
  }

  function sequenceOf(orgId: string, eventId: string): number {
    const sequence = orgSequenceOfEvent(ctx.db, orgId, eventId);
    if (sequence === null) {
      throw new HttpError(
        'INVALID_QUERY_PARAMETER',
        'resumeAfter names no event retained for this organization.',
      );
    }
    return sequence;
  }

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    if (url.pathname !== WS_PATH) {
      rejectUpgrade(socket, new HttpError('RESOURCE_NOT_FOUND', 'No such WebSocket path.'));
      return;
    }
    let principal: Principal;
    let resumeAfter: number | null;
    try {
      principal = authenticator.websocket(req.headers);
      if (!principal.scopes.has('websockets:read')) {
        throw new HttpError('FORBIDDEN', 'This API key lacks the scope websockets:read.');
      }
      const point = parseResumeAfter(url);
      resumeAfter =
        point === null
          ? null
          : 'sequence' in point
            ? point.sequence
            : sequenceOf(principal.orgId, point.eventId);
    } catch (error) {
      rejectUpgrade(
        socket,
        error instanceof HttpError
          ? error
          : new HttpError('INTERNAL_ERROR', ERROR_CODES.INTERNAL_ERROR.text),
      );
      return;
    }
    // Deliver whatever is committed before this socket joins, so its replay and live
    // events meet exactly at `position`.
    poll();
    wss.handleUpgrade(req, socket, head, (ws) => {
      onConnection(ws, socket, principal, resumeAfter);
    });
  }

  return {
    attach: (server) => {
      server.on('upgrade', onUpgrade);
    },
    clientCount: () => clients.size,
    service: {
      name: 'event-stream',
      start: () => {
        pollTimer = setInterval(poll, options.pollMs);
        pingTimer = setInterval(() => {
          for (const client of clients) {
            if (!client.isAlive) {
              client.socket.terminate();
              continue;
            }
            client.isAlive = false;
            client.socket.ping();
          }
        }, options.pingIntervalMs);
      },
      stop: () => {
        clearInterval(pollTimer);
        clearInterval(pingTimer);
        for (const client of clients) client.socket.terminate();
        clients.clear();
        wss.close();
      },
    },
  };
}
