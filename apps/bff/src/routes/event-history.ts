import express, { type Router } from 'express';
import { EventHistoryQuerySchema, type EventHistoryPage } from '@settlement/protocol';
import { HttpError } from '../errors';
import type { createEventHistory } from '../store/event-history';
import { requireRole } from './guards';

/**
 * GET /bff/events/history?before=&limit=&family=&type=&q= (support and above): the stored
 * events, newest first, a page at a time. The WebSocket at /bff/events continues from there.
 */
export function eventHistoryRoutes(history: ReturnType<typeof createEventHistory>): Router {
  const router = express.Router();
  router.get('/history', async (req, res) => {
    requireRole(res, 'support');
    const parsed = EventHistoryQuerySchema.safeParse(req.query);
    if (!parsed.success) {
      const names = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
      throw new HttpError('INVALID_QUERY_PARAMETER', `Invalid event history query: ${names}.`);
    }
    const { before, limit, family, type, q } = parsed.data;
    const body: EventHistoryPage = await history.page({
      before: before ?? null,
      limit,
      filter: {
        ...(family === undefined ? {} : { family }),
        ...(type === undefined ? {} : { type }),
        ...(q === undefined ? {} : { q }),
      },
    });
    res.setHeader('cache-control', 'no-store');
    res.json(body);
  });
  return router;
}
