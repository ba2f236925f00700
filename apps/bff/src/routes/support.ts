import express, { type Router } from 'express';
import { HttpError } from '../errors';
import type { Services } from '../services/services';
import { supportSearch } from '../services/support-search';
import type { EventStore } from '../store/events';
import type { ApprovalLookup } from '../support/approvals';
import { explainRequest } from '../support/explain';
import { supportTimeline } from '../support/timeline';
import { requireRole } from './guards';

const QUERY = /^[\x21-\x7e]{1,256}$/;

function queryOf(value: unknown, name: string): string {
  const q = typeof value === 'string' ? value.trim() : '';
  if (!QUERY.test(q)) {
    throw new HttpError(
      'INVALID_QUERY_PARAMETER',
      `${name} must be 1-256 visible ASCII characters.`,
    );
  }
  return q;
}

/**
 * Support tools, support role and above, read-only: GET /bff/support/search?q=,
 * GET /bff/support/timeline?q= (one merged timeline per id) and
 * GET /bff/support/requests/{requestId}/explanation (why an upstream call failed).
 */
export function supportRoutes(
  services: Services,
  store: EventStore,
  approvals: ApprovalLookup = () => Promise.resolve([]),
): Router {
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
  router.get('/timeline', async (req, res) => {
    const session = requireRole(res, 'support');
    const q = queryOf(req.query.q, 'q');
    res.setHeader('cache-control', 'no-store');
    res.json(await supportTimeline(services, store, approvals, { q, operator: session.username }));
  });
  router.get('/requests/:requestId/explanation', async (req, res) => {
    requireRole(res, 'support');
    const requestId = queryOf(req.params.requestId, 'requestId');
    res.setHeader('cache-control', 'no-store');
    res.json(await explainRequest(services, requestId));
  });
  return router;
}
