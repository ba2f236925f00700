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
