import type { Response } from 'express';
import { HttpError } from '../errors';
import { requireSession } from '../routes/guards';
import type { Session } from '../store/sessions';

/**
 * Money moves, policy, address book and operator changes: when the operator has a passkey,
 * they need a user-verified assertion from the last 5 minutes (passkey sign-in or
 * POST /bff/auth/step-up/verify), else 401 STEP_UP_REQUIRED and the console asks for it in
 * place. Freshness is computed with the session store's clock when the session is loaded.
 */
export function requireFreshStepUp(res: Response): Session {
  const session = requireSession(res);
  assertFreshStepUp(session);
  return session;
}

export function assertFreshStepUp(session: Session): void {
  if (session.needsStepUp) {
    throw new HttpError('STEP_UP_REQUIRED', undefined, [{ stepUp: '/bff/auth/step-up/options' }]);
  }
}
