import express, { type Router } from 'express';
import {
  SavedViewInputSchema,
  SavedViewQuerySchema,
  type SavedView,
  type SavedViewList,
} from '@settlement/protocol';
import { HttpError } from '../errors';
import type { Services } from '../services/services';
import type { AuditAction } from '../store/logs';
import type { SavedViewStore, StoredSavedView } from '../store/saved-views';
import { requireRole } from './guards';

function toWire(view: StoredSavedView): SavedView {
  return {
    ...view,
    createdAt: new Date(view.createdAt).toISOString(),
    updatedAt: new Date(view.updatedAt).toISOString(),
  };
}

/**
 * GET /bff/saved-views?subject= (the operator's own views and those shared with the
 * organization), POST /bff/saved-views (save one; the same name again replaces its filters) and
 * DELETE /bff/saved-views/{id} (its owner, or an admin for a shared one). Any signed-in
 * operator: a view is only a set of list filters, it grants nothing. Shared views are audited.
 */
export function savedViewRoutes(services: Services, views: SavedViewStore): Router {
  const router = express.Router();
  router.get('/', async (req, res) => {
    const session = requireRole(res, 'support');
    const parsed = SavedViewQuerySchema.safeParse(req.query);
    if (!parsed.success)
      throw new HttpError('INVALID_QUERY_PARAMETER', 'subject must name a list with saved views.');
    const body: SavedViewList = {
      items: (await views.listVisible(session.username, parsed.data.subject ?? null)).map(toWire),
    };
    res.setHeader('cache-control', 'no-store');
    res.json(body);
  });
  router.post('/', async (req, res) => {
    const session = requireRole(res, 'support');
    const parsed = SavedViewInputSchema.safeParse(req.body);
    if (!parsed.success) {
      throw new HttpError(
        'VALIDATION_ERROR',
        parsed.error.issues[0]?.message ?? 'The saved view is not valid.',
        parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), issue: issue.message })),
      );
    }
    const saved = await views.save({ ...parsed.data, owner: session.username }, services.now());
    if (!saved)
      throw new HttpError('PLAN_LIMIT_REACHED', 'You have saved as many views as allowed.');
    const { view, created } = saved;
    if (view.visibility === 'organization')
      await audit(services, session.username, 'saved-view.save', view);
    res.setHeader('cache-control', 'no-store');
    res.status(created ? 201 : 200).json(toWire(view));
  });
  router.delete('/:id', async (req, res) => {
    const session = requireRole(res, 'support');
    const view = await views.getVisible(req.params.id, session.username);
    if (!view) throw new HttpError('RESOURCE_NOT_FOUND', 'No such saved view.');
    // A shared view is the organization's too: its owner or an admin may remove it.
    if (view.owner !== session.username && session.role !== 'admin')
      throw new HttpError('FORBIDDEN', 'Only its owner or an admin can delete a shared view.');
    await views.remove(view.id);
    if (view.visibility === 'organization')
      await audit(services, session.username, 'saved-view.delete', view);
    res.status(204).end();
  });
  return router;
}

async function audit(
  services: Services,
  operator: string,
  action: AuditAction,
  view: StoredSavedView,
): Promise<void> {
  await services.logs.audit({
    at: services.now(),
    operator,
    action,
    outcome: 'success',
    operationId: null,
    idempotencyKey: null,
    upstreamRequestId: null,
    correlationId: null,
    resourceId: view.id,
    detail: JSON.stringify({ name: view.name, subject: view.subject, owner: view.owner }),
  });
}
