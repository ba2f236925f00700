import express, { type Router } from 'express';
import { CO_SIGNER_SCOPE } from '@settlement/protocol';
import type { AppContext } from '../context';
import {
  claimIntent,
  ClaimRequestSchema,
  postSessionMessage,
  SessionMessageSchema,
} from '../domain/transactions-signing';
import { principalOf, requireScope } from './auth';
import { pathParam } from './transactions-routes';
import { parseBody } from './validation';
import { jsonBody } from './body';
import { fingerprintOf, idempotencyKeyOf, runIdempotent, sendIdempotent } from './idempotency';

/**
 * The interface's two Co-Signer endpoints (scope `co-signer`, idempotency key required).
 * Payloads are the sandbox's: see domain/transactions-signing.ts and the README.
 */
export function coSignerRoutes(ctx: AppContext): Router {
  const router = express.Router();

  router.post('/co-signer/intents/:intentId/claim', requireScope(CO_SIGNER_SCOPE), (req, res) => {
    const { orgId, keyId } = principalOf(req);
    const key = idempotencyKeyOf(req);
    parseBody(ClaimRequestSchema, jsonBody(req));
    const nowMs = ctx.nowMs();
    const outcome = runIdempotent(
      ctx.db,
      { orgId, key, fingerprint: fingerprintOf(req), conflictCode: 'IDEMPOTENCY_CONFLICT', nowMs },
      () => ({
        status: 200,
        body: claimIntent(ctx.db, { orgId, keyId, nowMs }, pathParam(req.params.intentId)),
      }),
    );
    sendIdempotent(res, outcome);
  });

  router.post(
    '/co-signer/sessions/:sessionId/messages',
    requireScope(CO_SIGNER_SCOPE),
    (req, res) => {
      const { orgId, keyId } = principalOf(req);
      const key = idempotencyKeyOf(req);
      const input = parseBody(SessionMessageSchema, jsonBody(req));
      const nowMs = ctx.nowMs();
      const outcome = runIdempotent(
        ctx.db,
        {
          orgId,
          key,
          fingerprint: fingerprintOf(req),
          conflictCode: 'IDEMPOTENCY_CONFLICT',
          nowMs,
        },
        () => ({
          status: 200,
          body: postSessionMessage(
            ctx.db,
            { orgId, keyId, nowMs },
            pathParam(req.params.sessionId),
            input,
          ),
        }),
      );
      sendIdempotent(res, outcome);
    },
  );

  return router;
}
