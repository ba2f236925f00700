import express, { type Router } from 'express';
import type { AppContext } from '../context';
import { createDeposit, CreateDepositRequestSchema } from '../domain/deposits';
import { requestIds } from '../errors';
import { jsonBody } from './body';
import { parseBody } from './validation';

/**
 * Control plane (behind the admin token): POST /sandbox/orgs/{orgId}/deposits
 * {walletId, asset, amountAtomic, fromAddress?} -> 202 {depositId, txHash, transactionId}.
 */
export function depositRoutes(ctx: AppContext): Router {
  const router = express.Router();
  router.post('/orgs/:orgId/deposits', (req, res) => {
    const input = parseBody(CreateDepositRequestSchema, jsonBody(req));
    const { requestId, correlationId } = requestIds(req);
    const result = createDeposit(
      ctx.db,
      { orgId: req.params.orgId, requestId, correlationId, nowMs: ctx.nowMs() },
      input,
    );
    res.status(202).json(result);
  });
  return router;
}
