import { pino, type Logger, type LevelWithSilent } from 'pino';

/** Paths pino censors wherever they appear: signatures, tokens, keys, seeds. */
export const REDACT_PATHS = [
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

export function createLogger(level: LevelWithSilent = 'info'): Logger {
  return pino({
    level,
    base: { service: 'sandbox' },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  });
}
