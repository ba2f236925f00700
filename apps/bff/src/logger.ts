import pino, { type DestinationStream, type Logger } from 'pino';

/** Paths pino censors wherever they appear; secrets are also kept out of log calls by design. */
const REDACT_PATHS = [
  'password',
  '*.password',
  'seed',
  '*.seed',
  'adminToken',
  '*.adminToken',
  'signature',
  '*.signature',
  'headers.cookie',
  '*.headers.cookie',
  'headers["set-cookie"]',
  '*.headers["set-cookie"]',
  'headers["x-csrf-token"]',
  '*.headers["x-csrf-token"]',
  'headers["x-api-signature"]',
  '*.headers["x-api-signature"]',
  'headers.authorization',
  '*.headers.authorization',
  'csrfToken',
  '*.csrfToken',
  'sessionId',
  '*.sessionId',
];

/** Bytes gathered before a write to the log file descriptor, and the longest a line waits. */
const LOG_BATCH_BYTES = 4096;
const LOG_FLUSH_MS = 200;

/**
 * The process's log sink: asynchronous, and writing in batches of LOG_BATCH_BYTES or every
 * LOG_FLUSH_MS, whichever comes first. One `fs.write` per line (the request line of every
 * request) was ~4% of the BFF's busy time under load. Callers flush it (`flushSync`) before
 * every exit, so a batch is lost only if the process is killed outright.
 */
export function createLogDestination(dest: number | string = 1): pino.DestinationStream & {
  flushSync(): void;
} {
  return pino.destination({
    dest,
    sync: false,
    minLength: LOG_BATCH_BYTES,
    periodicFlush: LOG_FLUSH_MS,
  });
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'bff' },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

const unredactedChildren = new WeakMap<Logger, Logger>();

/**
 * A child of `logger` without the redaction pass, for the per-request and per-upstream-attempt
 * lines only: their fields are fixed (ids, method, path without query, status, timing) and
 * never secret, and the wildcard redaction costs ~25 us a line against ~3 us without.
 * Anything that logs a caller-supplied object keeps using `logger` itself.
 */
export function fixedFieldLogger(logger: Logger): Logger {
  let child = unredactedChildren.get(logger);
  if (!child) {
    child = logger.child({}, { redact: { paths: [], censor: '[redacted]' } });
    unredactedChildren.set(logger, child);
  }
  return child;
}

/** Writes what the destination still holds, synchronously; then ends the process with `code`. */
export function flushAndExit(destination: { flushSync(): void }, code: number): never {
  try {
    destination.flushSync();
  } catch {
    // Exiting matters more than the last buffered lines (e.g. stdout already closed).
  }
  process.exit(code);
}

/**
 * A crash the process did not expect (an exception nothing caught, a rejection nothing
 * handled) ends it with exit code 1 after one `fatal` line and a synchronous flush of the
 * batched log, so the lines leading up to it and the cause are in the log, not only a bare
 * stack on stderr. The line goes through the redacting logger (the error's type, message
 * and stack; secret-named fields censored). Installed first thing by main.ts.
 */
export function exitOnCrash(logger: Logger, destination: { flushSync(): void }): void {
  process.on('uncaughtException', (error, origin) => {
    logger.fatal({ err: error, origin }, 'uncaught exception');
    flushAndExit(destination, 1);
  });
  process.on('unhandledRejection', (reason) => {
    logger.fatal({ err: reason }, 'unhandled rejection');
    flushAndExit(destination, 1);
  });
}
