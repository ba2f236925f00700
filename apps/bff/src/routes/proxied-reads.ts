import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { answerError } from '../errors';
import type { RequestStart } from '../request-start';
import type { Services } from '../services/services';
import { authorizeOperation, proxyThrough } from './api';
import { readCookie } from './guards';
import { compressWhenEnded, preferredEncoding } from './static';

/** Serves the request and returns true when it is a proxied read; false leaves it to express. */
export type ProxiedReads = (req: IncomingMessage, res: ServerResponse) => boolean;

const API_PREFIX = '/bff/api/';

/** What type-is (express.raw) counts as a body: any Transfer-Encoding, a non-zero length. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The console's reads of the interface (GET /bff/api/v1/..., no body) on node's own request
 * and response, ahead of express: the same steps the express route takes for them (request
 * id, security headers and request line; compression; the session; the allowlist, role and
 * query checks; the signed call and its request-log row; the answer passed on; the envelope
 * of any error; only the session may come from a row read within the second, see
 * `resolveForRead`), without the app, its two nested routers and the seven layers around them,
 * which cost more than their own frames show (BENCHMARKS.md, group 2), on nearly every request
 * the console makes. Everything else (writes, HEAD, a read with a body, every other route) stays
 * express's. The server and the test harness run `Bff.listener`, so every suite reaches both.
 */
export function proxiedReads(deps: {
  services: Services;
  startRequest: RequestStart;
  logger: Logger;
}): ProxiedReads {
  const { services, startRequest, logger } = deps;
  const cookieName = services.config.cookieName;

  async function serve(req: IncomingMessage, res: ServerResponse, requestId: string) {
    const target = (req.url ?? '').slice('/bff'.length);
    const sessionId = readCookie(req, cookieName);
    const session = sessionId ? await services.sessions.resolveForRead(sessionId) : null;
    const authorized = authorizeOperation('GET', target, session);
    await proxyThrough(services, res, { ...authorized, target, body: null, requestId });
  }

  return (req, res) => {
    if (req.method !== 'GET' || req.url?.startsWith(API_PREFIX) !== true || hasBody(req)) {
      return false;
    }
    const requestId = startRequest(req, res);
    res.setHeader('vary', 'Accept-Encoding');
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    if (encoding) compressWhenEnded(res, encoding);
    serve(req, res, requestId).catch((error: unknown) => {
      // As express's final handler does: an answer already under way can only be cut.
      if (res.headersSent) {
        res.destroy();
        return;
      }
      try {
        answerError(error, { req, res, requestId, logger });
      } catch (failure) {
        // Never an unhandled rejection (it would end the process): this request only is lost.
        logger.error({ err: failure, requestId }, 'error answer failed');
        res.destroy();
      }
    });
    return true;
  };
}
