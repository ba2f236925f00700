import express, { type Response, type Router } from 'express';
import type {
  OneTimePassword,
  OperatorList,
  OperatorSummary,
  PasskeyList,
} from '@settlement/protocol';
import type { OperatorService } from '../security/operators';
import type { PasskeyService } from '../security/passkeys';
import { requireFreshStepUp } from '../security/step-up';
import type { Services } from '../services/services';
import { requireRole } from './guards';

function send(res: Response, status: number, body: unknown): void {
  res.setHeader('cache-control', 'no-store');
  res.status(status).json(body);
}

/** /bff/operators (admin): every change also needs a fresh step-up. */
export function operatorRoutes(
  services: Services,
  operators: OperatorService,
  passkeys: PasskeyService,
): Router {
  const router = express.Router();
  const admin = (res: Response) => {
    requireRole(res, 'admin');
    return requireFreshStepUp(res);
  };

  router.get('/', async (_req, res) => {
    requireRole(res, 'admin');
    send(res, 200, { items: await operators.list() } satisfies OperatorList);
  });
  router.post('/', async (req, res) => {
    const session = admin(res);
    send(res, 201, (await operators.create(session, req.body)) satisfies OneTimePassword);
  });
  router.patch('/:username', async (req, res) => {
    const session = admin(res);
    send(
      res,
      200,
      (await operators.update(session, req.params.username, req.body)) satisfies OperatorSummary,
    );
  });
  router.post('/:username/reset-password', async (req, res) => {
    const session = admin(res);
    send(
      res,
      200,
      (await operators.resetPassword(session, req.params.username)) satisfies OneTimePassword,
    );
  });
  router.get('/:username/passkeys', async (req, res) => {
    requireRole(res, 'admin');
    const operator = await operators.find(req.params.username);
    send(res, 200, {
      items: await passkeys.list(operator.id),
      requirePasskeys: services.config.requirePasskeys,
    } satisfies PasskeyList);
  });
  /**
   * An admin may remove even the last passkey of another operator (a lost device): with
   * passkeys required, that operator enrolls a new one at their next sign-in.
   */
  router.delete('/:username/passkeys/:id', async (req, res) => {
    const session = admin(res);
    const operator = await operators.find(req.params.username);
    await passkeys.remove(session.username, operator, req.params.id, {
      keepLast: services.config.requirePasskeys && operator.username === session.username,
    });
    res.status(204).end();
  });
  return router;
}
