import express, { type Router } from 'express';
import { coSignerHealthUrlFor } from '../config';
import { HttpError } from '../errors';
import type { Services } from '../services/services';
import { coSignerHealth, isUpstreamReady } from '../services/health';
import { requireSession } from './guards';

export function healthRoutes(services: Services): Router {
  const router = express.Router();
  const coSignerUrl = coSignerHealthUrlFor(services.config, services.upstream.orgId);

  router.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });

  router.get('/readyz', async (_req, res) => {
    if (!(await isUpstreamReady(services))) {
      throw new HttpError(
        'UPSTREAM_UNAVAILABLE',
        'The upstream is not reachable or refuses our keys.',
      );
    }
    res.json({ ok: true, upstream: { kind: services.config.upstreamKind } });
  });

  router.get('/co-signer/health', async (_req, res) => {
    requireSession(res);
    res.setHeader('cache-control', 'no-store');
    res.json(await coSignerHealth(services, coSignerUrl));
  });
  return router;
}
