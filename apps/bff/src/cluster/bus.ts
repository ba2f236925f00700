import pg from 'pg';
import type { Logger } from 'pino';
import { z } from 'zod';
import { UPSTREAM_STATES, type UpstreamState } from '@settlement/protocol';

/** What replicas tell each other. Payloads stay tiny: a position, a hash, a state. */
export type BusHandlers = {
  /** Events up to this position are committed: read them from the store. */
  onEvents(position: number): void;
  /** A session ended: close its browser sockets. */
  onSessionEnded(sessionHash: string): void;
  /** The leader's upstream connection state. */
  onUpstreamState(state: UpstreamState): void;
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
  };
}

export const CHANNELS = {
  events: 'bff_events',
  sessions: 'bff_sessions',
  upstream: 'bff_upstream',
} as const;

const PositionPayload = z
  .string()
  .regex(/^[1-9]\d{0,15}$/)
  .transform(Number);
const SessionHashPayload = z.string().regex(/^[0-9a-f]{16,128}$/);
const UpstreamPayload = z.enum(UPSTREAM_STATES);

/** Anything that runs one statement: the store's pool, so publishing takes no extra connection. */
export type Queryable = { query(text: string, values: unknown[]): Promise<unknown> };

export type PgBusOptions = {
  connectionString: string;
  /** Where NOTIFY is sent from (autocommit statements on the pool). */
  publisher: Queryable;
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
  let handlers: BusHandlers | null = null;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let hasWarned = false;

  const dispatch = (message: pg.Notification) => {
    if (!handlers) return;
    const payload = message.payload ?? '';
    if (message.channel === CHANNELS.events) {
      const position = PositionPayload.safeParse(payload);
      if (position.success) handlers.onEvents(position.data);
      else logger.warn({ channel: message.channel }, 'malformed cluster message ignored');
    } else if (message.channel === CHANNELS.sessions) {
      const hash = SessionHashPayload.safeParse(payload);
      if (hash.success) handlers.onSessionEnded(hash.data);
      else logger.warn({ channel: message.channel }, 'malformed cluster message ignored');
    } else if (message.channel === CHANNELS.upstream) {
      const state = UpstreamPayload.safeParse(payload);
      if (state.success) handlers.onUpstreamState(state.data);
      else logger.warn({ channel: message.channel }, 'malformed cluster message ignored');
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
        `LISTEN ${CHANNELS.events}; LISTEN ${CHANNELS.sessions}; LISTEN ${CHANNELS.upstream}`,
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

  const publish = async (channel: string, payload: string) => {
    await publisher.query('SELECT pg_notify($1, $2)', [channel, payload]);
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
  };
}
