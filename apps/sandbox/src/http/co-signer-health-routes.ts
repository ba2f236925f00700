import express, { type Router } from 'express';
import type { AppContext } from '../context';
import { findOrg } from '../domain/orgs';
import { pathParam } from './transactions-routes';

/**
 * Sandbox extension: the simulated Co-Signer's local health endpoint (unauthenticated, as a
 * locally installed Co-Signer's would be). 200 when online, 503 otherwise (unknown org too).
 */
export function coSignerHealthRoutes(ctx: AppContext): Router {
  const router = express.Router();
  router.get('/:orgId/healthz', (req, res) => {
    const orgId = pathParam(req.params.orgId);
    const org = findOrg(ctx.db, orgId);
    if (org?.isCoSignerOnline) {
      res.json({ status: 'ok', orgId, online: true });
      return;
    }
    res.status(503).json({ status: 'offline', orgId, online: false });
  });
  return router;
}
