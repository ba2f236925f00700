import { heapSizingProblem } from '@settlement/http-server';
import { ConfigError, ensureAdminToken, loadConfig } from './config';
import { createSandbox } from './app';
import { createLogger } from './logger';
import { READY_PREFIX } from './spawn';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const adminToken = ensureAdminToken(config.dataDir, config.adminToken);
  const sandbox = createSandbox({
    dataDir: config.dataDir,
    adminToken,
    blockMs: config.blockMs,
    logger,
  });
  const { port } = await sandbox.listen(config.port);
  // The ready line spawnSandbox waits for (tests, bench) and a person reads.
  process.stdout.write(`${READY_PREFIX}http://127.0.0.1:${port}\n`);
  const heapProblem = heapSizingProblem();
  if (heapProblem) logger.warn(heapProblem);

  let isStopping = false;
  const shutdown = (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    logger.info({ signal }, 'shutting down');
    sandbox.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => {
    shutdown('SIGTERM');
  });
  process.on('SIGINT', () => {
    shutdown('SIGINT');
  });
  process.on('unhandledRejection', (reason) => {
    logger.fatal({ err: reason }, 'unhandled rejection');
    process.exit(1);
  });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : String(error instanceof Error ? error.stack : error)}\n`,
  );
  process.exit(1);
});
