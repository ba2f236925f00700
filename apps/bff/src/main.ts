import { createExpressServer, heapSizingProblem } from '@settlement/http-server';
import { createApp } from './app';
import { pgBus } from './cluster/bus';
import { pgLeadership } from './cluster/leader';
import { ConfigError, loadConfig, loadKeys } from './config';
import { createLogDestination, createLogger, exitOnCrash, flushAndExit } from './logger';
import { openStorage } from './store/open';

async function main(): Promise<void> {
  const config = loadConfig();
  const keys = loadKeys(config.keysFile);
  // Asynchronous, batched stdout: a log line never blocks a request; flushed before exit.
  const logStream = createLogDestination();
  const logger = createLogger(config.logLevel, logStream);
  exitOnCrash(logger, logStream);
  const exit = (code: number): never => flushAndExit(logStream, code);
  const db = await openStorage(config);
  // On PostgreSQL any number of replicas share the database: one of them holds the upstream
  // stream, every one relays to its own browsers (docs/cluster.md). Alone on SQLite otherwise.
  const cluster =
    config.databaseUrl === null
      ? undefined
      : {
          leadership: pgLeadership({ connectionString: config.databaseUrl, logger }),
          bus: pgBus({ connectionString: config.databaseUrl, publisher: db, logger }),
        };
  const bff = createApp({ config, keys, db, logger, ...(cluster ? { cluster } : {}) });
  const server = createExpressServer(bff.app, bff.listener);
  bff.attach(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  bff.start();
  // A replica that cannot follow the event store or hear the others would serve a dead feed.
  await bff.ready();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  process.stdout.write(`bff listening on http://${config.host}:${port}\n`);
  logger.info({ port, upstream: config.upstreamUrl, kind: config.upstreamKind }, 'listening');
  const heapProblem = heapSizingProblem();
  if (heapProblem) logger.warn(heapProblem);

  let isStopping = false;
  const shutdown = (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    logger.info({ signal }, 'shutting down');
    const closed = new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
    server.closeIdleConnections();
    // In-flight requests get 5 s to finish; sockets of /bff/events end at once.
    setTimeout(() => {
      server.closeAllConnections();
    }, 5_000).unref();
    // Browser sockets and the upstream listener end first (they would hold the server open);
    // then in-flight requests finish, then the upstream pool and the database close.
    bff.hub.stop();
    bff.relay
      .stop()
      .then(() => closed)
      .then(() => bff.stop())
      .then(
        async () => {
          await db.close();
          exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          exit(1);
        },
      );
  };
  process.on('SIGTERM', () => {
    shutdown('SIGTERM');
  });
  process.on('SIGINT', () => {
    shutdown('SIGINT');
  });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : String(error instanceof Error ? error.stack : error)}\n`,
  );
  process.exit(1);
});
