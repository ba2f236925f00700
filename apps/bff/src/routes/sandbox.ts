import express, { type Response, type Router } from 'express';
import { HttpError } from '../errors';
import type { Services } from '../services/services';
import {
  CoSignerSwitchSchema,
  DepositRequestSchema,
  callSandbox,
  type ControlResponse,
} from '../services/sandbox-tools';
import { requireRole } from './guards';

function reply(res: Response, answer: ControlResponse): void {
  if (answer.requestId) res.setHeader('x-request-id', answer.requestId);
  res.status(answer.status).type('application/json').end(Buffer.from(answer.body));
}

/** Admin-only sandbox tools; absent (404) unless the upstream is the sandbox. */
export function sandboxRoutes(services: Services): Router {
  const router = express.Router();
  router.use((_req, _res, next) => {
    if (services.config.upstreamKind !== 'sandbox')
      throw new HttpError('RESOURCE_NOT_FOUND', 'No such route.');
    next();
  });

  router.post('/deposits', async (req, res) => {
    const session = requireRole(res, 'admin');
    const parsed = DepositRequestSchema.safeParse(req.body);
    if (!parsed.success)
      throw new HttpError('VALIDATION_ERROR', 'walletId, asset and amountAtomic are required.');
    reply(
      res,
      await callSandbox(services, {
        operator: session.username,
        action: 'sandbox.deposit',
        method: 'POST',
        path: 'deposits',
        body: parsed.data,
      }),
    );
  });

  router.put('/co-signer', async (req, res) => {
    const session = requireRole(res, 'admin');
    const parsed = CoSignerSwitchSchema.safeParse(req.body);
    if (!parsed.success) throw new HttpError('VALIDATION_ERROR', 'online (boolean) is required.');
    reply(
      res,
      await callSandbox(services, {
        operator: session.username,
        action: 'sandbox.co-signer',
        method: 'PUT',
        path: 'co-signer',
        body: parsed.data,
      }),
    );
  });
  return router;
}
