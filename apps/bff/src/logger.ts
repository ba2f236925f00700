import pino, { type DestinationStream, type Logger } from 'pino';

/** Paths pino censors wherever they appear; secrets are also kept out of log calls by design. */
export const REDACT_PATHS = [
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
