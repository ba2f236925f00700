import express, { type Request, type Router } from 'express';
import { MPC_INITIALIZE_BODY } from '@settlement/protocol';
import type { AppContext } from '../context';
import { HttpError, requestIds } from '../errors';
import { assetCatalog } from '../domain/assets';
import { initializeMpcKey, mpcStatus } from '../domain/mpc';
import { principalOf, requireScope } from './auth';
import { rawBody } from './body';
import { fingerprintOf, idempotencyKeyOf, runIdempotent, sendIdempotent } from './idempotency';

function isJsonContentType(req: Request): boolean {
  const type = req.headers['content-type'];
  return typeof type === 'string' && /^application\/json\s*(;.*)?$/i.test(type.trim());
}

/** The body of initialize must be exactly the two bytes `{}` sent as application/json. */
function checkInitializeBody(req: Request): void {
  const body = rawBody(req);
  if (body.length === 0) {
    throw new HttpError(
      'VALIDATION_ERROR',
      'MPC initialize needs the body {} with its X-Api-Body-Hash; a zero-length body is invalid.',
    );
  }
  if (body.toString('latin1') !== MPC_INITIALIZE_BODY || !isJsonContentType(req)) {
    throw new HttpError(
      'VALIDATION_ERROR',
      'MPC initialize accepts exactly the two bytes {} with Content-Type application/json.',
    );
  }
}

/** /api/v1/mpc/* and /api/v1/assets. */
export function mpcRoutes(ctx: AppContext): Router {
  const router = express.Router();

  router.get('/assets', (req, res) => {
    res.json({ items: assetCatalog(ctx.db, principalOf(req).orgId) });
  });

  router.post('/mpc/initialize', requireScope('mpc:initialize'), (req, res) => {
    const { orgId } = principalOf(req);
    const key = idempotencyKeyOf(req);
    const { correlationId } = requestIds(req);
    const nowMs = ctx.nowMs();
    const outcome = runIdempotent(
      ctx.db,
      {
        orgId,
        key,
        fingerprint: fingerprintOf(req),
        conflictCode: 'mpc.errors.IDEMPOTENCY_CONFLICT',
        nowMs,
      },
      () => {
        checkInitializeBody(req);
        const result = initializeMpcKey(ctx.db, orgId, {
          idempotencyKey: key,
          correlationId,
          now: new Date(nowMs),
        });
        return { status: 202, body: result };
      },
    );
    sendIdempotent(res, outcome);
  });

  router.get('/mpc/status', requireScope('mpc:read'), (req, res) => {
    res.json(mpcStatus(ctx.db, principalOf(req).orgId, new Date(ctx.nowMs())));
  });

  return router;
}
