import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express, { type Express } from 'express';
import { createExpressServer } from '@settlement/http-server';
import type { Logger } from 'pino';
import type { AppContext, BackgroundService } from './context';
import { errorMiddleware, HttpError, requestIdMiddleware, requestIds } from './errors';
import { createLogger } from './logger';
import { createAuthenticator } from './http/auth';
import { rawBodyMiddleware } from './http/body';
import { controlRoutes } from './http/control-routes';
import { faultsMiddleware } from './http/faults-middleware';
import { holdResponses } from './http/hold-responses';
import { groupCommitOf } from './store/group-commit';
import { checkpointer } from './store/checkpointer';
import { openDb, migrate, type Db } from './store/db';
import { createEventStream, type EventStream } from './events/stream';
import { housekeeping } from './domain/housekeeping';
import { mpcProvisioner } from './domain/mpc';
import { apiRoutes } from './http/api-routes';
import { coSignerHealthRoutes } from './http/co-signer-health-routes';
import { depositRoutes } from './http/deposits-routes';
import {
  createMoneyMovement,
  type MoneyMovement,
  type MoneyMovementOptions,
} from './domain/money-movement';

export type SandboxDeps = {
  dataDir: string;
  adminToken: string;
  blockMs?: number;
  logger?: Logger;
  nowMs?: () => number;
  /** WebSocket keepalive: ping every N ms, terminate a socket silent since the last ping. */
  pingIntervalMs?: number;
  /** Outbox poll interval of the event stream. */
  streamPollMs?: number;
  /** Simulated chain, lifecycle and Co-Signer options (timeouts, poll interval). */
  money?: MoneyMovementOptions;
};

export type Sandbox = {
  app: Express;
  ctx: AppContext;
  /** The simulated chain (mineBlock) and Co-Signer simulator (runOnce). */
  money: MoneyMovement;
  /** Serves /v1/ws on an HTTP server (upgrade handler). */
  attachWebSocket: (server: Server) => void;
  /** Starts background loops (block clock, MPC provisioning, housekeeping, ...). */
  start: (runtime: { baseUrl: string }) => void;
  stop: () => Promise<void>;
  /** Convenience: HTTP server on 127.0.0.1:port (0 = ephemeral) with WebSocket and loops. */
  listen: (port?: number) => Promise<{ port: number; baseUrl: string; server: Server }>;
};

function loadCursorSecret(db: Db): Buffer {
  const row = db
    .prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'cursor_secret'")
    .get();
  if (row) return Buffer.from(row.value, 'base64');
  const secret = randomBytes(32);
  db.prepare("INSERT INTO meta (key, value) VALUES ('cursor_secret', ?)").run(
    secret.toString('base64'),
  );
  return secret;
}

/** Builds the whole sandbox over DIR/sandbox.db. Nothing listens or ticks until start/listen. */
export function createSandbox(deps: SandboxDeps): Sandbox {
  const logger = deps.logger ?? createLogger('silent');
  const file = join(deps.dataDir, 'sandbox.db');
  const db = openDb(file);
  migrate(db);
  const ctx: AppContext = {
    db,
    logger,
    nowMs: deps.nowMs ?? Date.now,
    blockMs: deps.blockMs ?? 1000,
    cursorSecret: loadCursorSecret(db),
  };
  const authenticator = createAuthenticator(db, ctx.nowMs);
  const stream: EventStream = createEventStream(ctx, authenticator, {
    pingIntervalMs: deps.pingIntervalMs ?? 30_000,
    pollMs: deps.streamPollMs ?? 50,
  });
  const money = createMoneyMovement(ctx, deps.money);
  const services: BackgroundService[] = [
    checkpointer(db, file, {
      onError: (message) => {
        logger.warn({ message }, 'WAL checkpoint failed');
      },
    }),
    housekeeping(ctx),
    mpcProvisioner(ctx),
    stream.service,
    money.service,
  ];

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestIdMiddleware);
  const groupCommit = groupCommitOf(db);
  app.use(holdResponses(groupCommit, logger));
  app.use((req, res, next) => {
    const started = performance.now();
    res.on('finish', () => {
      logger.info(
        {
          requestId: requestIds(req).requestId,
          correlationId: requestIds(req).correlationId,
          method: req.method,
          target: req.originalUrl,
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
        },
        'request',
      );
    });
    next();
  });
  app.use(rawBodyMiddleware);
  // Deposits sit behind the control plane's admin guard (it runs for every /sandbox path but healthz).
  app.use('/sandbox', controlRoutes(ctx, deps.adminToken), depositRoutes(ctx));
  app.use('/co-signer', coSignerHealthRoutes(ctx));
  app.use('/api/v1', authenticator.rest, faultsMiddleware(ctx), apiRoutes(ctx));
  app.use(() => {
    throw new HttpError('RESOURCE_NOT_FOUND', 'No such route.');
  });
  app.use(errorMiddleware(logger));

  let isStarted = false;
  const servers: Server[] = [];
  const sandbox: Sandbox = {
    app,
    ctx,
    money,
    attachWebSocket: (server) => {
      stream.attach(server);
    },
    start: (runtime) => {
      if (isStarted) return;
      isStarted = true;
      for (const service of services) service.start(runtime);
    },
    stop: async () => {
      for (const service of [...services].reverse()) await service.stop();
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => {
                resolve();
              });
              server.closeAllConnections();
            }),
        ),
      );
      groupCommit.flush();
      if (db.open) db.close();
    },
    listen: async (port = 0) => {
      const server = createExpressServer(app);
      servers.push(server);
      sandbox.attachWebSocket(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
      const address = server.address() as AddressInfo;
      const baseUrl = `http://127.0.0.1:${address.port}`;
      sandbox.start({ baseUrl });
      return { port: address.port, baseUrl, server };
    },
  };
  return sandbox;
}
