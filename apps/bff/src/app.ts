import type { IncomingMessage, RequestListener, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { Config, Keys } from './config';
import { HttpError, errorMiddleware } from './errors';
import { requestStart } from './request-start';
import { soloBus, type ClusterBus } from './cluster/bus';
import { createEventFeed } from './cluster/feed';
import { soleLeader, type Leadership } from './cluster/leader';
import { createHub, eventFrame, type Hub } from './relay/hub';
import { createRelay, type Relay } from './relay/relay';
import { SIGN_IN_PATHS, authRoutes } from './routes/auth';
import { operatorRoutes } from './routes/operators';
import { createOperatorService } from './security/operators';
import { createPasskeyStore } from './security/passkey-store';
import { createPasskeyService } from './security/passkeys';
import { eventsUpgradeHandler } from './routes/events';
import { supportRoutes } from './routes/support';
import { createApprovalLookup } from './support/approvals';
import { auditRoutes } from './routes/audit';
import { exportRoutes } from './routes/exports';
import { createEventKeyIndexer, createEventKeyIndexing } from './store/event-keys';
import { createEventStore, type EventStore } from './store/events';
import { apiRoutes } from './routes/api';
import { consoleConfigRoutes } from './routes/console-config';
import { eventHistoryRoutes } from './routes/event-history';
import { overviewRoutes } from './routes/overview';
import { savedViewRoutes } from './routes/saved-views';
import { walletLabelRoutes } from './routes/wallet-labels';
import { createEventHistory } from './store/event-history';
import { createSavedViewStore } from './store/saved-views';
import { createWalletLabelStore } from './store/wallet-labels';
import { createGovernance } from './governance/governance';
import { addressBookRoutes, policyRoutes, withdrawalRequestRoutes } from './routes/governance';
import { csrfGuard, loadSession, readCookie } from './routes/guards';
import { healthRoutes } from './routes/health';
import { operationRoutes } from './routes/operations';
import { sandboxRoutes } from './routes/sandbox';
import { compressResponses, staticRoutes } from './routes/static';
import { proxiedReads } from './routes/proxied-reads';
import type { Services } from './services/services';
import { createIdempotentExecutor } from './services/idempotent';
import { createLoginThrottle } from './services/login-throttle';
import type { Sql } from './store/sql';
import { createJournalStore } from './store/journal';
import { createLogStore } from './store/logs';
import { createOperatorStore } from './store/operators';
import { createSessionStore } from './store/sessions';
import { createSettingsStore } from './store/settings';
import { createUpstream } from './upstream/upstream';

export type AppDeps = {
  config: Config;
  keys: Keys;
  db: Sql;
  logger: Logger;
  now?: () => number;
  /** Test hook: shorter retry backoff against the upstream. */
  upstreamRetry?: { baseMs?: number; capMs?: number };
  /** Test hook: the first retry of an approved request the upstream did not take. */
  resumeFirstRetryMs?: number;
  /** Relay tuning (tests use small values). */
  relay?: {
    maxBufferedBytes?: number;
    pingIntervalMs?: number;
    /** How often the hub re-checks the sessions behind its sockets (the fallback of the bus). */
    sessionCheckIntervalMs?: number;
    backoff?: { baseMs: number; capMs: number };
  };
  /**
   * Replicas of one PostgreSQL (main.ts builds them from DATABASE_URL): who holds the upstream
   * stream, and how the others hear of events, ended sessions and changes. Default: alone.
   */
  cluster?: { leadership: Leadership; bus: ClusterBus };
};

export type Bff = {
  app: Express;
  /** What the server runs for each request: the proxied reads ahead of express, then `app`. */
  listener: RequestListener;
  services: Services;
  events: EventStore;
  hub: Hub;
  relay: Relay;
  /** Serves GET /bff/events (WebSocket) on the server. */
  attach(server: Server): void;
  /** Starts the event relay and periodic maintenance; nothing runs before this. */
  start(): void;
  /** Resolves once this replica follows the event store and hears the others (or fails). */
  ready(): Promise<void>;
  stop(): Promise<void>;
};

const DAY_MS = 86_400_000;

const JOURNAL_RETENTION_MS = 7 * DAY_MS;

function createServices(deps: AppDeps): Services {
  const now = deps.now ?? Date.now;
  const upstreamOptions = {
    baseUrl: deps.config.upstreamUrl,
    keys: deps.keys,
    timeoutMs: deps.config.upstreamTimeoutMs,
    ...(deps.upstreamRetry ? { retry: deps.upstreamRetry } : {}),
  };
  return {
    config: deps.config,
    logger: deps.logger,
    upstream: createUpstream(upstreamOptions),
    operators: createOperatorStore(deps.db, now),
    sessions: createSessionStore(
      deps.db,
      { idleMs: deps.config.sessionIdleMs, absoluteMs: deps.config.sessionAbsoluteMs },
      now,
    ),
    journal: createJournalStore(deps.db, now),
    logs: createLogStore(deps.db, (error, rows) => {
      deps.logger.error({ err: error, rows }, 'request log write failed');
    }),
    settings: createSettingsStore(deps.db),
    throttle: createLoginThrottle(deps.db, now),
    now,
  };
}

/** Builds the BFF over its dependencies; listening and timers are the caller's (main.ts). */
export function createApp(deps: AppDeps): Bff {
  const services = createServices(deps);
  const { logger, config } = services;
  const executor = createIdempotentExecutor(services);
  const events = createEventStore(deps.db, services.now);
  const hub = createHub({
    maxBufferedBytes: deps.relay?.maxBufferedBytes ?? 1024 * 1024,
    pingIntervalMs: deps.relay?.pingIntervalMs ?? 30_000,
    ...(deps.relay?.sessionCheckIntervalMs
      ? { sessionCheckIntervalMs: deps.relay.sessionCheckIntervalMs }
      : {}),
    isSessionAlive: (idHash) => services.sessions.isAlive(idHash),
  });
  const keyIndexing = createEventKeyIndexing({
    indexer: createEventKeyIndexer(deps.db),
    settleLog: deps.db.settleLog,
    hasReceivedSince: (at) => events.hasReceivedSince(at),
    logger,
    now: services.now,
  });
  const { leadership, bus } = deps.cluster ?? { leadership: soleLeader(), bus: soloBus() };
  const feed = createEventFeed({
    store: events,
    deliver: (stored) => {
      hub.broadcast(...stored.map(eventFrame));
      // The lull after a delivery is when the key indexer's streaming chunks delay no event.
      keyIndexing.relayed();
    },
    logger,
  });
  const tellOthers = (what: string) => (error: unknown) => {
    logger.warn({ err: error }, `${what} not told to the other replicas`);
  };
  const endSessions = (idHashes: readonly string[]) => {
    for (const idHash of idHashes) {
      services.sessions.forgetReused(idHash);
      hub.closeSession(idHash);
      bus.publishSessionEnded(idHash).catch(tellOthers('ended session'));
    }
  };
  const relay = createRelay({
    wsUrl: config.upstreamWsUrl,
    orgId: services.upstream.orgId,
    key: services.upstream.keyFor('websockets:read'),
    store: events,
    hub,
    feed,
    bus,
    logger,
    ...(deps.relay?.backoff ? { backoff: deps.relay.backoff } : {}),
    ...(deps.relay?.pingIntervalMs ? { pingIntervalMs: deps.relay.pingIntervalMs } : {}),
  });
  const governance = createGovernance({
    services,
    executor,
    db: deps.db,
    ...(deps.resumeFirstRetryMs ? { resumeFirstRetryMs: deps.resumeFirstRetryMs } : {}),
    broadcast: (frame) => {
      hub.broadcast(frame);
      bus.publishChange(frame).catch(tellOthers('change'));
    },
  });
  const onUpgrade = eventsUpgradeHandler({ services, hub, store: events, relay, feed });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const startRequest = requestStart(logger);
  app.use((req, res, next) => {
    res.locals.requestId = startRequest(req, res);
    next();
  });

  const bff = express.Router();
  // The session routes answer with the CSRF token: never compressed (see compressResponses).
  bff.use(compressResponses({ isSecretBearing: (req) => req.path.startsWith('/auth/') }));
  bff.use(loadSession(services));
  bff.use(
    csrfGuard({ exempt: ['/auth/login', ...SIGN_IN_PATHS], publicOrigin: config.publicOrigin }),
  );
  bff.use('/api', apiRoutes(services, executor, governance.withdrawals));
  bff.use(express.json({ limit: '64kb' }));
  const passkeys = createPasskeyService(services, createPasskeyStore(deps.db, services.now));
  bff.use(
    '/auth',
    authRoutes(services, passkeys, {
      onLogout: (idHash) => {
        endSessions([idHash]);
      },
    }),
  );
  const operatorService = createOperatorService(services, endSessions);
  bff.use('/operators', operatorRoutes(services, operatorService, passkeys));
  bff.use('/support', supportRoutes(services, events, createApprovalLookup(deps.db)));
  bff.use('/audit', auditRoutes(services));
  bff.use('/export', exportRoutes(services));
  bff.use('/policy', policyRoutes(governance));
  bff.use('/withdrawal-requests', withdrawalRequestRoutes(governance));
  bff.use('/address-book', addressBookRoutes(governance));
  bff.use('/operations', operationRoutes(services));
  const walletLabels = createWalletLabelStore(deps.db);
  bff.use('/overview', overviewRoutes(services, walletLabels));
  bff.use('/wallet-labels', walletLabelRoutes(services, walletLabels));
  bff.use('/saved-views', savedViewRoutes(services, createSavedViewStore(deps.db)));
  bff.use('/events', eventHistoryRoutes(createEventHistory(deps.db)));
  bff.use('/config', consoleConfigRoutes(services));
  bff.use('/sandbox', sandboxRoutes(services));
  bff.use(healthRoutes(services));
  bff.use(() => {
    throw new HttpError('RESOURCE_NOT_FOUND', 'No such route.');
  });
  app.use('/bff', bff);
  const statics = staticRoutes(config.consoleDist, {
    // The landing page's early paint names who is signed in (a finished sign-in only).
    signedInAs: async (req) => {
      const sessionId = readCookie(req, services.config.cookieName);
      const session = sessionId ? await services.sessions.resolve(sessionId) : null;
      return session?.stage === 'complete'
        ? {
            username: session.username,
            role: session.role,
            isSandbox: services.config.upstreamKind === 'sandbox',
          }
        : null;
    },
  });
  app.use(statics.router);
  app.use(() => {
    throw new HttpError('RESOURCE_NOT_FOUND', 'No such route.');
  });
  app.use(errorMiddleware(logger));
  const reads = proxiedReads({ services, startRequest, logger });
  const listener: RequestListener = (req, res) => {
    if (!reads(req, res)) app(req, res);
  };

  let timer: NodeJS.Timeout | null = null;
  let ready: Promise<void> = Promise.resolve();
  const maintain = async () => {
    const at = services.now();
    try {
      await services.sessions.removeExpired();
      await services.logs.prune(at - config.logRetentionDays * DAY_MS, config.logMaxRows);
      await services.journal.pruneBefore(at - JOURNAL_RETENTION_MS);
      await events.prune(at - config.eventRetentionDays * DAY_MS);
    } catch (error) {
      logger.error({ err: error }, 'maintenance failed');
    }
  };

  return {
    app,
    listener,
    services,
    events,
    hub,
    relay,
    attach(server) {
      server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        if (!onUpgrade(req, socket, head)) socket.destroy();
      });
    },
    ready: () => ready,
    start() {
      if (timer) return;
      hub.start();
      ready = Promise.all([
        feed.start(),
        bus.start({
          onEvents: (position) => {
            feed.wake(position);
          },
          onResync: () => {
            feed.wake();
          },
          onSessionEnded: (idHash) => {
            services.sessions.forgetReused(idHash);
            hub.closeSession(idHash);
          },
          onUpstreamState: (state) => {
            relay.follow(state);
          },
          onChange: (frame) => {
            hub.broadcast(frame);
          },
        }),
      ]).then(() => undefined);
      // Only the leader holds the upstream stream; alone (SQLite) this process always leads.
      leadership.start({
        onElected: () => {
          relay.start().catch((error: unknown) => {
            logger.error({ err: error }, 'event relay start failed');
          });
        },
        onDeposed: () => {
          relay.stop().catch((error: unknown) => {
            logger.error({ err: error }, 'event relay stop failed');
          });
        },
      });
      governance.start();
      statics.warm().catch((error: unknown) => {
        logger.warn({ err: error }, 'compressing the console assets failed');
      });
      keyIndexing.start();
      void maintain();
      timer = setInterval(() => {
        void maintain();
      }, 10 * 60_000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await keyIndexing.stop();
      governance.stop();
      hub.stop();
      await relay.stop();
      // Handing the lead over at once: another replica resumes the stream at its next attempt.
      await leadership.stop();
      await bus.stop();
      feed.stop();
      await services.upstream.close();
      await services.logs.flush();
      startRequest.flushLines();
    },
  };
}
