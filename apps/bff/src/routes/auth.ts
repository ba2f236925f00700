import express, { type Router } from 'express';
import { HttpError } from '../errors';
import { LoginRequestSchema, identityOf, login, logout } from '../services/auth';
import type { Services } from '../services/context';
import { currentSessionId, requireSession, sessionCookie } from './guards';

export function authRoutes(
  services: Services,
  hooks: { onLogout: (sessionHash: string) => void },
): Router {
  const router = express.Router();
  const { cookieName, sessionAbsoluteMs } = services.config;

  router.post('/login', async (req, res) => {
    const parsed = LoginRequestSchema.safeParse(req.body);
    if (!parsed.success)
      throw new HttpError('VALIDATION_ERROR', 'username and password are required.');
    const { sessionId, identity } = await login(services, {
      username: parsed.data.username,
      password: parsed.data.password,
      ip: req.socket.remoteAddress ?? 'unknown',
      previousSessionId: currentSessionId(res),
    });
    res.setHeader('set-cookie', sessionCookie(cookieName, sessionId, sessionAbsoluteMs));
    res.setHeader('cache-control', 'no-store');
    res.json(identity);
  });

  router.post('/logout', (_req, res) => {
    const session = requireSession(res);
    const sessionId = currentSessionId(res);
    if (sessionId) logout(services, sessionId, session.username);
    hooks.onLogout(session.idHash);
    res.setHeader('set-cookie', sessionCookie(cookieName, '', 0));
    res.status(204).end();
  });

  router.get('/me', (_req, res) => {
    const session = requireSession(res);
    res.setHeader('cache-control', 'no-store');
    res.json(identityOf(services, session));
  });

  return router;
}
