import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';

/** Paths pino censors wherever they appear: signatures, tokens, keys, seeds. */
const REDACT_PATHS = [
  'req.headers["x-api-signature"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-api-signature"]',
  'headers.authorization',
  '*.privateKey',
  '*.seed',
  '*.adminToken',
  '*.signature',
  'privateKey',
  'seed',
  'adminToken',
  'signature',
];

/** The sandbox's logger (main.ts); `destination` defaults to stdout and lets tests read the lines. */
export function createLogger(
  level: LevelWithSilent = 'info',
  destination?: DestinationStream,
): Logger {
  const options = {
    level,
    base: { service: 'sandbox' },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
