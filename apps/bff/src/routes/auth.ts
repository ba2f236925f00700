import express, { type Request, type Response, type Router } from 'express';
import {
  STEP_UP_FRESH_MS,
  type PasskeyEnrolled,
  type PasskeyList,
  type SignInResult,
  type StepUp,
} from '@settlement/protocol';
import { HttpError } from '../errors';
import type { PasskeyService } from '../security/passkeys';
import { assertFreshStepUp } from '../security/step-up';
import {
  LoginRequestSchema,
  advanceSignIn,
  changePassword,
  identityOf,
  login,
  logout,
} from '../services/auth';
import type { Services } from '../services/services';
import type { Session, SessionStage } from '../store/sessions';
import { currentSessionId, readCookie, requireSession, sessionCookie, tokensEqual } from './guards';
import { sessionRoutes } from './sessions';

/**
 * Routes a session still signing in may call (and, all but /password, a signed-in one). The
 * general CSRF guard only knows signed-in sessions, so app.ts exempts these paths from its
 * token check (never from its Origin check) and `signInSession` checks the token here.
 */
export const SIGN_IN_PATHS = [
  '/auth/logout',
  '/auth/password',
  '/auth/passkeys/login/options',
  '/auth/passkeys/login/verify',
  '/auth/passkeys/register/options',
  '/auth/passkeys/register/verify',
] as const;

function noStore(res: Response): void {
  res.setHeader('cache-control', 'no-store');
}

export function authRoutes(
  services: Services,
  passkeys: PasskeyService,
  hooks: { onLogout: (sessionHash: string) => void },
): Router {
  const router = express.Router();
  const { cookieName, sessionAbsoluteMs } = services.config;

  /** The cookie's session in one of `stages`, with the CSRF token checked. */
  async function signInSession(req: Request, stages: readonly SessionStage[]): Promise<Session> {
    const sessionId = readCookie(req, cookieName);
    const session = sessionId ? await services.sessions.resolveAny(sessionId) : null;
    if (!session) throw new HttpError('UNAUTHENTICATED', 'Sign in first (or the session expired).');
    const token = req.headers['x-csrf-token'];
    if (typeof token !== 'string' || !tokensEqual(token, session.csrfToken)) {
      throw new HttpError('FORBIDDEN', 'Missing or wrong CSRF token.');
    }
    if (!stages.includes(session.stage)) {
      throw new HttpError('FORBIDDEN', 'This is not the next step of signing in.');
    }
    return session;
  }

  router.post('/login', async (req, res) => {
    const parsed = LoginRequestSchema.safeParse(req.body);
    if (!parsed.success)
      throw new HttpError('VALIDATION_ERROR', 'username and password are required.');
    const { sessionId, result } = await login(services, {
      username: parsed.data.username,
      password: parsed.data.password,
      ip: req.socket.remoteAddress ?? 'unknown',
      userAgent: req.headers['user-agent'] ?? '',
      previousSessionId: readCookie(req, cookieName),
    });
    res.setHeader('set-cookie', sessionCookie(cookieName, sessionId, sessionAbsoluteMs));
    noStore(res);
    res.json(result satisfies SignInResult);
  });

  router.post('/logout', async (req, res) => {
    const session = await signInSession(req, [
      'complete',
      'change-password',
      'passkey',
      'enroll-passkey',
    ]);
    const sessionId = readCookie(req, cookieName) ?? currentSessionId(res);
    if (sessionId) await logout(services, sessionId, session.username);
    hooks.onLogout(session.idHash);
    res.setHeader('set-cookie', sessionCookie(cookieName, '', 0));
    res.status(204).end();
  });

  router.get('/me', (_req, res) => {
    const session = requireSession(res);
    noStore(res);
    res.json(identityOf(services, session));
  });

  router.post('/password', async (req, res) => {
    const session = await signInSession(req, ['change-password', 'complete']);
    noStore(res);
    res.json(await changePassword(services, session, req.body));
  });

  // --- passkeys ---

  /** Enrolling: during sign-in (none yet), or a further passkey after a fresh step-up. */
  async function enrollingSession(req: Request): Promise<Session> {
    const session = await signInSession(req, ['enroll-passkey', 'complete']);
    if (session.stage === 'complete') assertFreshStepUp(session);
    return session;
  }

  router.post('/passkeys/register/options', async (req, res) => {
    const session = await enrollingSession(req);
    noStore(res);
    res.json(await passkeys.registrationOptions(session));
  });

  router.post('/passkeys/register/verify', async (req, res) => {
    const session = await enrollingSession(req);
    const passkey = await passkeys.register(session, req.body);
    const signIn: SignInResult =
      session.stage === 'enroll-passkey'
        ? await advanceSignIn(services, session, 'enroll-passkey')
        : identityOf(services, session);
    noStore(res);
    res.status(201).json({ passkey, signIn } satisfies PasskeyEnrolled);
  });

  router.post('/passkeys/login/options', async (req, res) => {
    const session = await signInSession(req, ['passkey']);
    noStore(res);
    res.json(await passkeys.assertionOptions(session, 'login'));
  });

  router.post('/passkeys/login/verify', async (req, res) => {
    const session = await signInSession(req, ['passkey']);
    const ip = req.socket.remoteAddress ?? 'unknown';
    const waitMs = await services.throttle.retryAfterMs(session.username, ip);
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new HttpError('RATE_LIMITED', undefined, [{ retryAfterSeconds: seconds }], {
        'retry-after': String(seconds),
      });
    }
    await passkeys.assert(session, 'login', req.body, async () => {
      await services.throttle.recordFailure(session.username, ip);
      return new HttpError('UNAUTHENTICATED', 'The passkey could not be verified. Try again.');
    });
    // The sign-in assertion is user-verified: it counts as a step-up for 5 minutes.
    await services.sessions.recordStepUp(session.idHash);
    noStore(res);
    res.json(await advanceSignIn(services, session, 'passkey'));
  });

  router.get('/passkeys', async (_req, res) => {
    const session = requireSession(res);
    noStore(res);
    res.json({
      items: await passkeys.list(session.operatorId),
      requirePasskeys: services.config.requirePasskeys,
    } satisfies PasskeyList);
  });

  router.delete('/passkeys/:id', async (req, res) => {
    const session = requireSession(res);
    assertFreshStepUp(session);
    await passkeys.remove(
      session.username,
      { id: session.operatorId, username: session.username },
      req.params.id,
      { keepLast: services.config.requirePasskeys },
    );
    res.status(204).end();
  });

  // --- step-up ---

  router.post('/step-up/options', async (_req, res) => {
    const session = requireSession(res);
    noStore(res);
    res.json(await passkeys.assertionOptions(session, 'step-up'));
  });

  router.post('/step-up/verify', async (req, res) => {
    const session = requireSession(res);
    await passkeys.assert(
      session,
      'step-up',
      req.body,
      () => new HttpError('STEP_UP_REQUIRED', 'The passkey could not be verified. Try again.'),
    );
    const at = await services.sessions.recordStepUp(session.idHash);
    noStore(res);
    res.json({ freshUntil: new Date(at + STEP_UP_FRESH_MS).toISOString() } satisfies StepUp);
  });

  router.use('/sessions', sessionRoutes(services, hooks));

  return router;
}
