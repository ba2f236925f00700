import express, { type Router } from 'express';
import { HttpError } from '../errors';
import type { Services } from '../services/context';
import { requireSession } from './guards';

function parseBody(bytes: Uint8Array | null): unknown {
  if (!bytes || bytes.length === 0) return null;
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return null;
  }
}

/** GET /bff/operations/:operationId -> the journal's view of one logical action. */
export function operationRoutes(services: Services): Router {
  const router = express.Router();
  router.get('/:operationId', (req, res) => {
    requireSession(res);
    const entry = services.journal.get(req.params.operationId);
    if (!entry) throw new HttpError('RESOURCE_NOT_FOUND', 'No such operation.');
    res.setHeader('cache-control', 'no-store');
    res.json({
      operationId: entry.operationId,
      operation: entry.operation,
      state: entry.state,
      ...(entry.status === null ? {} : { status: entry.status }),
      ...(entry.response === null ? {} : { response: parseBody(entry.response) }),
      idempotencyKey: entry.idempotencyKey,
      clientReference: entry.clientReference,
      upstreamRequestId: entry.upstreamRequestId,
      correlationId: entry.correlationId,
      createdAt: new Date(entry.createdAt).toISOString(),
      updatedAt: new Date(entry.updatedAt).toISOString(),
    });
  });
  return router;
}
