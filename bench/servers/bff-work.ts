import { createServer, type ServerResponse } from 'node:http';
import { Cancellation } from '@settlement/client';
import { timeOrderedId } from '@settlement/protocol/ids';
import { loadConfig, loadKeys } from '@settlement/bff/config';
import { createLogDestination, createLogger, fixedFieldLogger } from '@settlement/bff/logger';
import { matchOperation, queryProblem } from '@settlement/bff/operations';
import { readCookie } from '@settlement/bff/guards';
import { requireRoleOf } from '@settlement/bff/auth';
import { recordAttempts } from '@settlement/bff/services';
import {
  HELMET_OPTIONS,
  applySecurityHeaders,
  computeSecurityHeaders,
} from '@settlement/bff/security-headers';
import { openDb } from '@settlement/bff/store/db';
import { createLogStore } from '@settlement/bff/store/logs';
import { createSessionStore } from '@settlement/bff/store/sessions';
import { createUpstream } from '@settlement/bff/upstream';

/**
 * Bench reference (run as its own process): the BFF's own work for one proxied read, with the
 * BFF's modules and configuration, on bare `node:http` instead of express and its routers. Per
 * request: a request id, the security headers, the session (as the BFF's reads take it: from
 * a row read within the second), the allowlist and role check, signing and sending through the
 * BFF's client (its request-log row included), and the request line. So group 2 shows what that work costs above the pass-through, and what
 * express, the routers and the middlewares around it add on top (the BFF itself).
 * GET only, the one path group 2 drives; anything else is a 404. Env: the BFF's own
 * (DATA_DIR of a seeded BFF, UPSTREAM_URL, PORT); it shares that BFF's database file.
 */

const config = loadConfig();
const db = openDb(`${config.dataDir}/bff/bff.db`);
const upstream = createUpstream({
  baseUrl: config.upstreamUrl,
  keys: loadKeys(config.keysFile),
  timeoutMs: config.upstreamTimeoutMs,
});
const sessions = createSessionStore(db, {
  idleMs: config.sessionIdleMs,
  absoluteMs: config.sessionAbsoluteMs,
});
const logStream = createLogDestination();
const logger = createLogger(config.logLevel, logStream);
const requestLogger = fixedFieldLogger(logger);
const logs = createLogStore(db, (error) => {
  logger.error({ err: error }, 'request log write failed');
});
const securityHeaders = computeSecurityHeaders(HELMET_OPTIONS);

function answerStatus(res: ServerResponse, status: number): void {
  res.statusCode = status;
  res.end();
}

async function proxyRead(
  target: string,
  requestId: string,
  res: ServerResponse,
  cookie: string | null,
) {
  const session = cookie ? await sessions.resolveForRead(cookie) : null;
  if (!session) {
    answerStatus(res, 401);
    return;
  }
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  const operation = matchOperation('GET', path);
  if (!operation) {
    answerStatus(res, 404);
    return;
  }
  requireRoleOf(session, operation.role);
  if (queryProblem(operation, queryAt === -1 ? '' : target.slice(queryAt + 1))) {
    answerStatus(res, 400);
    return;
  }
  const chosen = upstream.clientFor(operation.scope);
  if (!chosen) {
    answerStatus(res, 403);
    return;
  }
  const browserLeft = new Cancellation();
  res.on('close', () => {
    if (!res.writableFinished) browserLeft.abort(new Error('the browser left'));
  });
  const response = await chosen.client.send('GET', target, {
    requestId,
    signal: browserLeft,
    onAttempt: recordAttempts(
      { logs, logger, now: Date.now },
      { operator: session.username, operation: operation.name, operationId: null },
    ),
  });
  if (response.requestId) res.setHeader('x-request-id', response.requestId);
  if (response.correlationId) res.setHeader('x-correlation-id', response.correlationId);
  res.setHeader('cache-control', 'no-store');
  res.setHeader('content-type', response.headers['content-type'] ?? 'application/json');
  res.statusCode = response.status;
  const body = response.bodyBytes;
  res.end(Buffer.from(body.buffer, body.byteOffset, body.length));
}

const server = createServer((req, res) => {
  if (req.url === '/healthz') {
    answerStatus(res, 200);
    return;
  }
  const started = performance.now();
  const requestId = `bff_${timeOrderedId()}`;
  res.setHeader('x-request-id', requestId);
  applySecurityHeaders(res, securityHeaders);
  res.on('finish', () => {
    requestLogger.info(
      {
        requestId,
        upstreamRequestId: res.getHeader('x-request-id'),
        method: req.method,
        path: (req.url ?? '').split('?')[0],
        status: res.statusCode,
        ms: Math.round(performance.now() - started),
      },
      'request',
    );
  });
  const url = req.url ?? '/';
  if (req.method !== 'GET' || !url.startsWith('/bff/api/')) {
    answerStatus(res, 404);
    return;
  }
  // A failure is logged with its cause: a reference that only answered 502 would hide why
  // (group 2 counts every non-2xx of every path).
  proxyRead(url.slice('/bff'.length), requestId, res, readCookie(req, config.cookieName)).catch(
    (error: unknown) => {
      logger.error({ err: error, requestId }, 'the BFF work reference failed a read');
      if (!res.headersSent) answerStatus(res, 502);
    },
  );
});

server.listen(config.port, '127.0.0.1', () => {
  process.stdout.write(`bff work reference listening on http://127.0.0.1:${config.port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void logs
    .flush()
    .then(() => upstream.close())
    .then(() => db.close())
    .finally(() => {
      logStream.flushSync();
      process.exit(0);
    });
});
