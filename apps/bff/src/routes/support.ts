import express, { type Router } from 'express';
import { HttpError } from '../errors';
import type { Services } from '../services/context';
import { supportSearch } from '../services/support-search';
import type { EventStore } from '../store/events';
import { requireRole } from './guards';

const QUERY = /^[\x21-\x7e]{1,256}$/;

/** GET /bff/support/search?q= — support role and above; read-only. */
export function supportRoutes(services: Services, store: EventStore): Router {
  const router = express.Router();
  router.get('/search', async (req, res) => {
    const session = requireRole(res, 'support');
    const q = typeof req.query.q === 'string' ? req.query.q.trim() : '';
    if (!QUERY.test(q)) {
      throw new HttpError('INVALID_QUERY_PARAMETER', 'q must be 1-256 visible ASCII characters.');
    }
    res.setHeader('cache-control', 'no-store');
    res.json(await supportSearch(services, store, { q, operator: session.username }));
  });
  return router;
}
