import express, { type Response, type Router } from 'express';
import type { OperationView } from '@settlement/protocol';
import { HttpError } from '../errors';
import { abandonWithdrawal } from '../services/abandon';
import type { Services } from '../services/services';
import type { JournalEntry } from '../store/journal';
import { requireRole, requireSession } from './guards';

function parseBody(bytes: Uint8Array | null): unknown {
  if (!bytes || bytes.length === 0) return null;
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return null;
  }
}

/** The journal entry and every upstream call made for it (sends and reconciliation reads). */
async function viewOf(services: Services, entry: JournalEntry): Promise<OperationView> {
  const attempts = (await services.logs.findRequests(entry.operationId))
    .filter((row) => row.operationId === entry.operationId)
    .map((row) => ({
      operation: row.operation,
      method: row.method,
      attempt: row.attempt,
      status: row.status,
      requestId: row.requestIdSent,
      upstreamRequestId: row.upstreamRequestId,
      at: new Date(row.at).toISOString(),
      error: row.error,
    }));
  return {
    operationId: entry.operationId,
    operation: entry.operation,
    state: entry.state,
    ...(entry.status === null ? {} : { status: entry.status }),
    ...(entry.response === null ? {} : { response: parseBody(entry.response) }),
    idempotencyKey: entry.idempotencyKey,
    clientReference: entry.clientReference,
    upstreamRequestId: entry.upstreamRequestId,
    correlationId: entry.correlationId,
    attempts,
    createdAt: new Date(entry.createdAt).toISOString(),
    updatedAt: new Date(entry.updatedAt).toISOString(),
  };
}

function sendView(res: Response, view: OperationView): void {
  res.setHeader('cache-control', 'no-store');
  res.json(view);
}

/**
 * GET /bff/operations/:operationId -> the journal's view of one logical action.
 * POST /bff/operations/:operationId/abandon -> the view after reconciling and, only when the
 * upstream proved not to have it, abandoning a withdrawal of unknown outcome.
 */
export function operationRoutes(services: Services): Router {
  const router = express.Router();
  router.get('/:operationId', async (req, res) => {
    requireSession(res);
    const entry = await services.journal.get(req.params.operationId);
    if (!entry) throw new HttpError('RESOURCE_NOT_FOUND', 'No such operation.');
    sendView(res, await viewOf(services, entry));
  });
  router.post('/:operationId/abandon', async (req, res) => {
    // The role that may send a withdrawal may give one up.
    const session = requireRole(res, 'treasury');
    const entry = await abandonWithdrawal(services, {
      operator: session.username,
      operationId: req.params.operationId,
    });
    sendView(res, await viewOf(services, entry));
  });
  return router;
}
