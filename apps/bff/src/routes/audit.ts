import express, { type Router } from 'express';
import { AuditQuerySchema, type AuditPage } from '@settlement/protocol';
import { HttpError } from '../errors';
import type { Services } from '../services/services';
import { requireRole } from './guards';

/**
 * GET /bff/audit?page=&limit=&snapshotAt=&operator=&action=&from=&to= — the interface's audit
 * convention: pages by page and limit, newest first, as the log stood at snapshotAt (the first
 * page answers it; later pages send it back so new rows never shift them).
 */
export function auditRoutes(services: Services): Router {
  const router = express.Router();
  router.get('/', async (req, res) => {
    requireRole(res, 'support');
    const parsed = AuditQuerySchema.safeParse(req.query);
    if (!parsed.success) {
      const names = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
      throw new HttpError('INVALID_QUERY_PARAMETER', `Invalid audit query: ${names}.`);
    }
    const { page, limit, snapshotAt, operator, action, from, to } = parsed.data;
    const snapshot = snapshotAt === undefined ? services.now() : Date.parse(snapshotAt);
    const found = await services.logs.auditPage({
      snapshotAt: snapshot,
      filter: {
        operator,
        action,
        from: from === undefined ? undefined : Date.parse(from),
        to: to === undefined ? undefined : Date.parse(to),
      },
      limit,
      offset: (page - 1) * limit,
    });
    const body: AuditPage = {
      items: found.items.map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
      page,
      limit,
      snapshotAt: new Date(snapshot).toISOString(),
      total: found.total,
    };
    res.setHeader('cache-control', 'no-store');
    res.json(body);
  });
  return router;
}
