import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pathOf, startRequestId } from './errors';
import { fixedFieldLogger } from './logger';
import { HELMET_OPTIONS, applySecurityHeaders, computeSecurityHeaders } from './security-headers';

/** Gives a request its id, and its answer the security headers and a request line. */
export type RequestStart = ((req: IncomingMessage, res: ServerResponse) => string) & {
  /** Writes the lines still waiting for their turn to end, at once (before the process exits). */
  flushLines(): void;
};

/** What a request line says, taken when its answer finished. */
type RequestLine = {
  requestId: string;
  upstreamRequestId: ReturnType<ServerResponse['getHeader']>;
  method: string | undefined;
  target: string;
  status: number;
  ms: number;
};

/**
 * Writes request lines after the turn of the event loop that finished their answers, all of
 * that turn's together. The upstream answers many reads in one turn; written at once, each
 * line (~9 us in pino) held up every answer after it in the turn, and the BFF's reads are
 * bound by that wait as much as by CPU (BENCHMARKS.md, group 2, 2026-12-06). A crash loses at
 * most the lines of the turn it happens in, as it loses the request log's rows still batched
 * (store/logs.ts); a shutdown writes them (`flushLines`). The answers themselves are unchanged.
 */
function afterTheTurn(logger: Logger): {
  write: (line: RequestLine) => void;
  flush: () => void;
} {
  let pending: RequestLine[] = [];
  const writeAll = () => {
    const lines = pending;
    pending = [];
    for (const line of lines) {
      logger.info(
        {
          requestId: line.requestId,
          upstreamRequestId: line.upstreamRequestId,
          method: line.method,
          path: pathOf(line.target),
          status: line.status,
          ms: line.ms,
        },
        'request',
      );
    }
  };
  return {
    write: (line) => {
      if (pending.length === 0) setImmediate(writeAll);
      pending.push(line);
    },
    flush: writeAll,
  };
}

/**
 * What every request gets, through express or ahead of it (routes/proxied-reads.ts): an id
 * (its x-request-id), helmet's headers (worked out once, see security-headers.ts) and, once
 * the answer finishes, one request line.
 */
export function requestStart(logger: Logger): RequestStart {
  const lines = afterTheTurn(fixedFieldLogger(logger));
  const securityHeaders = computeSecurityHeaders(HELMET_OPTIONS);
  const start = (req: IncomingMessage, res: ServerResponse): string => {
    const requestId = startRequestId(res);
    const started = performance.now();
    // Express rewrites req.url inside its routers: the line names the target as it came.
    const target = req.url ?? '';
    res.on('finish', () => {
      lines.write({
        requestId,
        upstreamRequestId: res.getHeader('x-request-id'),
        method: req.method,
        target,
        status: res.statusCode,
        ms: Math.round(performance.now() - started),
      });
    });
    applySecurityHeaders(res, securityHeaders);
    return requestId;
  };
  return Object.assign(start, { flushLines: lines.flush });
}
