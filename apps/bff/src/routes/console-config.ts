import express, { type Router } from 'express';
import type { ConsoleConfig } from '@settlement/protocol';
import type { Services } from '../services/services';
import { requireSession } from './guards';

/** GET /bff/config (signed in): console settings, such as the block explorers per chain. */
export function consoleConfigRoutes(services: Services): Router {
  const router = express.Router();
  router.get('/', (_req, res) => {
    requireSession(res);
    const body: ConsoleConfig = { explorers: services.config.explorers };
    res.setHeader('cache-control', 'no-store');
    res.json(body);
  });
  return router;
}
