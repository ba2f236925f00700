import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pathOf, startRequestId } from './errors';
import { fixedFieldLogger } from './logger';
import { HELMET_OPTIONS, applySecurityHeaders, computeSecurityHeaders } from './security-headers';

/** Gives a request its id, and its answer the security headers and a request line. */
export type RequestStart = (req: IncomingMessage, res: ServerResponse) => string;

/**
 * What every request gets, through express or ahead of it (routes/proxied-reads.ts): an id
 * (its x-request-id), helmet's headers (worked out once, see security-headers.ts) and, when the
 * answer finishes, one request line.
 */
export function requestStart(logger: Logger): RequestStart {
  const requestLogger = fixedFieldLogger(logger);
  const securityHeaders = computeSecurityHeaders(HELMET_OPTIONS);
  return (req, res) => {
    const requestId = startRequestId(res);
    const started = performance.now();
    // Express rewrites req.url inside its routers: the line names the target as it came.
    const target = req.url ?? '';
    res.on('finish', () => {
      requestLogger.info(
        {
          requestId,
          upstreamRequestId: res.getHeader('x-request-id'),
          method: req.method,
          path: pathOf(target),
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
        },
        'request',
      );
    });
    applySecurityHeaders(res, securityHeaders);
    return requestId;
  };
}
