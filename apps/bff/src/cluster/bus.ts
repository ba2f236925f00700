import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import { z } from 'zod';
import { RelayFrameSchema, UPSTREAM_STATES, type UpstreamState } from '@settlement/protocol';
import type { Sql } from '../store/sql';

/**
 * What a replica tells the others (never itself: it acts on its own news directly). Payloads
 * stay small: a position, a hash, a state, a change frame naming REST paths.
 */
export type BusHandlers = {
  /** Events up to this position are committed: read them from the store. */
  onEvents(position: number): void;
  /** A session ended: close its browser sockets. */
  onSessionEnded(sessionHash: string): void;
  /** The leader's upstream connection state. */
  onUpstreamState(state: UpstreamState): void;
  /** A `change` frame (withdrawal requests, policy, ...) for this replica's browsers. */
  onChange(frame: string): void;
  /** Messages may have been missed (the listening connection was re-established). */
  onResync(): void;
};

export type ClusterBus = {
  start(handlers: BusHandlers): Promise<void>;
  stop(): Promise<void>;
  /** After commit, never inside a transaction (a NOTIFY is delivered only on commit). */
  publishEvents(position: number): Promise<void>;
  publishSessionEnded(sessionHash: string): Promise<void>;
  publishUpstreamState(state: UpstreamState): Promise<void>;
  publishChange(frame: string): Promise<void>;
};

/** One process alone: nobody else to tell (its own hub is told directly). */
export function soloBus(): ClusterBus {
  const done = () => Promise.resolve();
  return {
    start: done,
    stop: done,
    publishEvents: done,
    publishSessionEnded: done,
    publishUpstreamState: done,
    publishChange: done,
  };
}

export const CHANNELS = {
  events: 'bff_events',
  sessions: 'bff_sessions',
  upstream: 'bff_upstream',
  changes: 'bff_changes',
} as const;

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7_999;

const PositionPayload = z
  .string()
  .regex(/^[1-9]\d{0,15}$/)
  .transform(Number);
const SessionHashPayload = z.string().regex(/^[0-9a-f]{16,128}$/);
const UpstreamPayload = z.enum(UPSTREAM_STATES);
const ChangePayload = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not JSON' });
      return z.NEVER;
    }
  })
  .pipe(RelayFrameSchema)
  .refine((frame) => frame.kind === 'change')
  .transform((frame) => JSON.stringify(frame));
/** Every payload starts with the sender's replica id, so a replica skips its own messages. */
const ENVELOPE = /^([0-9a-f]{16}) ([\s\S]*)$/;

export type PgBusOptions = {
  connectionString: string;
  /** Where NOTIFY is sent from: the stores' pool, in autocommit (never a transaction). */
  publisher: Pick<Sql, 'all'>;
  logger: Logger;
  /** Between attempts to re-establish the listening connection. */
  retryMs?: number;
};

/**
 * LISTEN/NOTIFY between replicas of one database. Each replica listens on a dedicated
 * connection (a pooled or transaction-mode-pooled one would lose the LISTEN); a NOTIFY
 * carries only a position or a hash (payloads are limited to 8000 bytes, and the event itself
 * is read from the store). A connection lost while listening may have missed messages, so
 * once listening again the replica is told to resync from the store.
 */
export function pgBus(options: PgBusOptions): ClusterBus {
  const { logger, publisher } = options;
  const retryMs = options.retryMs ?? 1_000;
  const replicaId = randomBytes(8).toString('hex');
  let handlers: BusHandlers | null = null;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let hasWarned = false;

  /** Parses the body of one channel's message and hands it on; false when malformed. */
  const route = (on: BusHandlers, channel: string, body: string): boolean => {
    if (channel === CHANNELS.events) {
      const position = PositionPayload.safeParse(body);
      if (position.success) on.onEvents(position.data);
      return position.success;
    }
    if (channel === CHANNELS.sessions) {
      const hash = SessionHashPayload.safeParse(body);
      if (hash.success) on.onSessionEnded(hash.data);
      return hash.success;
    }
    if (channel === CHANNELS.upstream) {
      const state = UpstreamPayload.safeParse(body);
      if (state.success) on.onUpstreamState(state.data);
      return state.success;
    }
    const frame = ChangePayload.safeParse(body);
    if (frame.success) on.onChange(frame.data);
    return frame.success;
  };

  const dispatch = (message: pg.Notification) => {
    if (!handlers) return;
    const envelope = ENVELOPE.exec(message.payload ?? '');
    if (envelope?.[1] === replicaId) return;
    if (!envelope || !route(handlers, message.channel, envelope[2] ?? '')) {
      logger.warn({ channel: message.channel }, 'malformed cluster message ignored');
    }
  };

  const listen = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: options.connectionString,
      keepAlive: true,
      application_name: 'bff-listener',
    });
    const onLost = (error?: unknown) => {
      if (client !== next) return;
      client = null;
      next.removeAllListeners('end');
      next.on('error', () => undefined);
      next.end().catch(() => undefined);
      if (!hasWarned) logger.warn({ err: error }, 'cluster listener connection lost');
      hasWarned = true;
      retry();
    };
    next.on('error', onLost);
    next.on('end', onLost);
    next.on('notification', dispatch);
    client = next;
    try {
      await next.connect();
      await next.query(
        Object.values(CHANNELS)
          .map((channel) => `LISTEN ${channel};`)
          .join(' '),
      );
    } catch (error) {
      onLost(error);
      throw error;
    }
  };

  const retry = () => {
    if (!handlers || timer) return;
    timer = setTimeout(() => {
      timer = null;
      if (!handlers || client) return;
      listen().then(
        () => {
          hasWarned = false;
          logger.info('cluster listener connected again');
          handlers?.onResync();
        },
        () => undefined,
      );
    }, retryMs);
  };

  const publish = async (channel: string, body: string) => {
    const payload = `${replicaId} ${body}`;
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
      throw new Error(`cluster message on ${channel} exceeds the NOTIFY payload limit`);
    }
    await publisher.all('SELECT pg_notify(?, ?)', [channel, payload]);
  };

  return {
    async start(next) {
      if (handlers) return;
      handlers = next;
      // The first connection must work: a replica that cannot listen would serve a dead feed.
      await listen();
    },
    async stop() {
      handlers = null;
      if (timer) clearTimeout(timer);
      timer = null;
      const current = client;
      client = null;
      if (current) {
        current.removeAllListeners('end');
        current.removeAllListeners('error');
        current.on('error', () => undefined);
        await current.end().catch(() => undefined);
      }
    },
    publishEvents: (position) => publish(CHANNELS.events, String(position)),
    publishSessionEnded: (sessionHash) => publish(CHANNELS.sessions, sessionHash),
    publishUpstreamState: (state) => publish(CHANNELS.upstream, state),
    publishChange: (frame) => publish(CHANNELS.changes, frame),
  };
}
