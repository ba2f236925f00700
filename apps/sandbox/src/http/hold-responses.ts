import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { errorEnvelope } from '@settlement/protocol';
import { requestIds } from '../errors';
import type { GroupCommit } from '../store/group-commit';

type End = (...args: unknown[]) => Response;

/**
 * Holds every response until the group commit it may have written into is durable
 * (store/group-commit.ts): `res.end` waits for the open batch, as express-session's does for
 * its store. When the batch fails to commit, nothing of it happened: the answer becomes a 500
 * INTERNAL_ERROR envelope (retryable, same idempotency key) instead of what the handler said.
 */
export function holdResponses(groupCommit: GroupCommit, logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const end = res.end.bind(res) as End;
    res.end = ((...args: unknown[]) => {
      if (!groupCommit.isOpen()) return end(...args);
      groupCommit.committed().then(
        () => {
          end(...args);
        },
        (error: unknown) => {
          const { requestId } = requestIds(req);
          logger.error({ err: error, requestId }, 'group commit failed');
          if (res.headersSent) {
            res.destroy();
            return;
          }
          const body = JSON.stringify(
            errorEnvelope('INTERNAL_ERROR', requestId, `Internal error (request ${requestId}).`),
          );
          res.statusCode = 500;
          res.removeHeader('x-idempotent-replayed');
          res.setHeader('content-type', 'application/json; charset=utf-8');
          res.setHeader('content-length', Buffer.byteLength(body));
          end(body);
        },
      );
      return res;
    }) as Response['end'];
    next();
  };
}
