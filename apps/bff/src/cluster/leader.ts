import pg from 'pg';
import type { Logger } from 'pino';

/**
 * What a replica does when it gains or loses the lead: the leader alone holds the upstream
 * event stream (DESIGN.md "Running beyond one machine").
 */
type LeaderRole = { onElected(): void; onDeposed(): void };

export type Leadership = {
  /** Begins campaigning; the role's callbacks run on every change of lead. */
  start(role: LeaderRole): void;
  /** Gives the lead up (so another replica takes over at its next attempt) and stops. */
  stop(): Promise<void>;
  readonly isLeader: boolean;
};

/** One process on its own database (SQLite) is always the leader, as before replicas existed. */
export function soleLeader(): Leadership {
  let role: LeaderRole | null = null;
  return {
    start(next) {
      if (role) return;
      role = next;
      role.onElected();
    },
    async stop() {
      const current = role;
      role = null;
      current?.onDeposed();
      return Promise.resolve();
    },
    get isLeader() {
      return role !== null;
    },
  };
}

/**
 * The advisory lock every replica of one database competes for. A fixed 64-bit key: the lock
 * namespace is per database, and nothing else in this database takes advisory locks.
 */
const UPSTREAM_LEADER_LOCK = '7305614062310318419';

export type PgLeadershipOptions = {
  connectionString: string;
  logger: Logger;
  /** Between attempts of a follower, and between liveness checks of the leader. */
  retryMs?: number;
  /** A liveness check slower than this counts as a lost connection (and so a lost lead). */
  checkTimeoutMs?: number;
  lockKey?: string;
  /** Tests count and pace the attempts; defaults to the global timers. */
  timers?: Timers;
};

type Timers = {
  setTimeout(callback: () => void, ms: number): NodeJS.Timeout;
  clearTimeout(timer: NodeJS.Timeout): void;
};

/**
 * Leader election by `pg_try_advisory_lock` on a dedicated connection (never a pooled one: a
 * session lock belongs to the connection, and a pool would hand it to unrelated queries).
 * PostgreSQL releases the lock when that connection ends, so a leader that dies (SIGKILL, lost
 * network) frees it and a follower takes it at its next attempt, within `retryMs`. The leader
 * checks its connection every `retryMs` too and steps down the moment it errors or ends, so two
 * replicas do not stream at once for longer than one check.
 */
export function pgLeadership(options: PgLeadershipOptions): Leadership {
  const { logger } = options;
  const retryMs = options.retryMs ?? 1_000;
  const checkTimeoutMs = options.checkTimeoutMs ?? Math.max(2 * retryMs, 2_000);
  const lockKey = options.lockKey ?? UPSTREAM_LEADER_LOCK;
  const timers: Timers = options.timers ?? { setTimeout, clearTimeout };
  let role: LeaderRole | null = null;
  let client: pg.Client | null = null;
  let isLeader = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let lastProblem: string | null = null;

  const setLeader = (next: boolean) => {
    if (next === isLeader) return;
    isLeader = next;
    logger.info({ isLeader: next }, next ? 'took the upstream lead' : 'lost the upstream lead');
    if (next) role?.onElected();
    else role?.onDeposed();
  };

  /** Drops the connection (the server releases the lock with it) and steps down. */
  const drop = (reason: string, error?: unknown) => {
    const current = client;
    client = null;
    if (current) {
      current.removeAllListeners('error');
      current.on('error', () => undefined);
      current.end().catch(() => undefined);
    }
    // Logged once per kind of problem, not once per retry of a database that is down.
    if (reason !== lastProblem) {
      logger.warn({ err: error, reason }, 'leader election connection lost');
      lastProblem = reason;
    }
    setLeader(false);
  };

  const connect = async (): Promise<pg.Client> => {
    const next = new pg.Client({
      connectionString: options.connectionString,
      keepAlive: true,
      query_timeout: checkTimeoutMs,
      connectionTimeoutMillis: checkTimeoutMs,
      application_name: 'bff-leader',
    });
    const onLost = (error?: unknown) => {
      if (client === next) drop('connection ended', error);
    };
    next.on('error', onLost);
    next.on('end', onLost);
    try {
      await next.connect();
    } catch (error) {
      next.removeAllListeners('end');
      next.on('error', () => undefined);
      await next.end().catch(() => undefined);
      throw error;
    }
    client = next;
    return next;
  };

  const attempt = async () => {
    try {
      const current = client ?? (await connect());
      if (isLeader) {
        await current.query('SELECT 1');
      } else {
        const { rows } = await current.query<{ ok: boolean }>(
          'SELECT pg_try_advisory_lock($1::bigint) AS ok',
          [lockKey],
        );
        lastProblem = null;
        setLeader(rows[0]?.ok === true);
      }
    } catch (error) {
      drop(error instanceof Error ? error.message : 'attempt failed', error);
    }
  };

  const schedule = () => {
    if (!role) return;
    timer = timers.setTimeout(() => {
      timer = null;
      running = attempt().then(schedule);
    }, retryMs);
  };

  return {
    start(next) {
      if (role) return;
      role = next;
      running = attempt().then(schedule);
    },
    async stop() {
      const wasRole = role;
      role = null;
      if (timer) timers.clearTimeout(timer);
      timer = null;
      await running;
      const current = client;
      client = null;
      if (current) {
        current.removeAllListeners('end');
        current.removeAllListeners('error');
        current.on('error', () => undefined);
        // Unlocking explicitly hands over at once; ending the session would release it too.
        if (isLeader) {
          await current.query('SELECT pg_advisory_unlock($1::bigint)', [lockKey]).catch(() => null);
        }
        await current.end().catch(() => undefined);
      }
      if (isLeader) {
        isLeader = false;
        wasRole?.onDeposed();
      }
    },
    get isLeader() {
      return isLeader;
    },
  };
}
