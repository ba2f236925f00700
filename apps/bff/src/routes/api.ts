import type { ServerResponse } from 'node:http';
import express, { type Router } from 'express';
import { Cancellation } from '@settlement/client';
import { HttpError, requestIdOf } from '../errors';
import type { Withdrawals } from '../governance/withdrawals';
import type { Services } from '../services/services';
import {
  OPERATION_ID_PATTERN,
  type IdempotentExecutor,
  type IdempotentResult,
} from '../services/idempotent';
import { isKnownPath, matchOperation, queryProblem, type Operation } from '../services/operations';
import { proxyOperation } from '../services/proxy';
import { assertFreshStepUp } from '../security/step-up';
import type { Session } from '../store/sessions';
import { currentSession, requireRoleIn } from './guards';

const PATH_CHARS = /^[A-Za-z0-9\-._~%!$&'()*+,;=:@/]+$/;

function passThrough(
  res: ServerResponse,
  answer: {
    status: number;
    contentType: string | undefined;
    body: Uint8Array;
    requestId: string | null;
    correlationId: string | null;
  },
): void {
  if (answer.requestId) res.setHeader('x-request-id', answer.requestId);
  if (answer.correlationId) res.setHeader('x-correlation-id', answer.correlationId);
  res.setHeader('cache-control', 'no-store');
  res.statusCode = answer.status;
  if (answer.body.length > 0)
    res.setHeader('content-type', answer.contentType ?? 'application/json');
  res.end(Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.length));
}

/**
 * The allowlisted operation of `method` on `target` (the path under /bff, query included), for
 * a session whose role allows it, with a query the operation accepts; else the HttpError.
 */
export function authorizeOperation(
  method: string,
  target: string,
  session: Session | null,
): { operation: Operation; path: string; session: Session } {
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  const rawQuery = queryAt === -1 ? '' : target.slice(queryAt + 1);
  const operation = PATH_CHARS.test(path) ? matchOperation(method, path) : null;
  if (!operation) {
    throw new HttpError(
      'RESOURCE_NOT_FOUND',
      isKnownPath(path) ? `${method} is not offered on this path.` : 'No such operation.',
    );
  }
  const allowed = requireRoleIn(session, operation.role);
  const problem = queryProblem(operation, rawQuery);
  if (problem) throw new HttpError('INVALID_QUERY_PARAMETER', problem);
  return { operation, path, session: allowed };
}

/**
 * One operation without an idempotency key (reads, account creation): signed and sent, its
 * answer passed on unchanged; given up on when the browser leaves.
 */
export async function proxyThrough(
  services: Services,
  res: ServerResponse,
  call: {
    session: Session;
    operation: Operation;
    target: string;
    body: Uint8Array | null;
    requestId: string;
  },
): Promise<void> {
  // Not an AbortController: see Cancellation (this runs for every proxied request).
  const browserLeft = new Cancellation();
  res.on('close', () => {
    if (!res.writableFinished) {
      browserLeft.abort(new DOMException('The browser closed the request', 'AbortError'));
    }
  });
  const response = await proxyOperation(services, {
    operator: call.session.username,
    operation: call.operation,
    target: call.target,
    body: call.body,
    requestId: call.requestId,
    signal: browserLeft,
  });
  passThrough(res, {
    status: response.status,
    contentType: response.headers['content-type'],
    body: response.bodyBytes,
    requestId: response.requestId,
    correlationId: response.correlationId,
  });
}

/**
 * /bff/api/v1/...: the allowlisted operations, role-checked before any upstream call, signed
 * with the least-privileged key; the target is passed on verbatim and the answer unchanged.
 * Withdrawals (`transactions.create`) always go through the withdrawal policy first.
 */
export function apiRoutes(
  services: Services,
  executor: IdempotentExecutor,
  withdrawals: Withdrawals,
): Router {
  const router = express.Router();
  router.use(express.raw({ type: () => true, limit: '1mb' }));

  router.use(async (req, res) => {
    const target = req.originalUrl.slice('/bff'.length);
    const { operation, path, session } = authorizeOperation(
      req.method,
      target,
      currentSession(res),
    );
    const body: Uint8Array | null =
      Buffer.isBuffer(req.body) && req.body.length > 0 ? new Uint8Array(req.body) : null;
    if (operation.method === 'GET' && body) {
      throw new HttpError('VALIDATION_ERROR', 'A read takes no body.');
    }
    if (operation.isIdempotent) {
      const operationId = req.headers['x-operation-id'];
      if (typeof operationId !== 'string' || !OPERATION_ID_PATTERN.test(operationId)) {
        throw new HttpError(
          'IDEMPOTENCY_KEY_REQUIRED',
          'X-Operation-Id (1-128 visible ASCII, one per logical action) is required.',
        );
      }
      let result: IdempotentResult;
      if (operation.name === 'transactions.create') {
        // Sending money: a passkey holder confirms it is them (5 minutes) before anything else.
        assertFreshStepUp(session);
        // No path to the upstream around the policy: ALLOW sends, BLOCK throws, else 202.
        const outcome = await withdrawals.submit({
          session,
          operationId,
          body: body ?? new Uint8Array(),
          requestId: requestIdOf(res),
        });
        if (outcome.kind === 'request') {
          res.setHeader('cache-control', 'no-store');
          res.status(202).json({ withdrawalRequest: outcome.request });
          return;
        }
        result = outcome.result;
      } else {
        result = await executor.execute({
          operator: session.username,
          operationId,
          operation,
          path,
          consoleBody: body ?? new Uint8Array(),
          requestId: requestIdOf(res),
        });
      }
      res.setHeader('x-operation-replayed', result.isReplay ? 'true' : 'false');
      passThrough(res, {
        status: result.status,
        contentType: 'application/json',
        body: result.body,
        requestId: result.requestId,
        correlationId: result.correlationId,
      });
      return;
    }

    await proxyThrough(services, res, {
      session,
      operation,
      target,
      body,
      requestId: requestIdOf(res),
    });
  });
  return router;
}
