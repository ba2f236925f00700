import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '../errors';
import type { Services } from '../services/services';
import { requireRoleOf } from '../services/auth';
import type { Role } from '@settlement/protocol';
import type { Session } from '../store/sessions';

export function readCookie(req: IncomingMessage, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{1,128}$/.test(value) ? value : null;
    }
  }
  return null;
}

export function sessionCookie(name: string, value: string, maxAgeMs: number): string {
  const maxAge = Math.max(0, Math.floor(maxAgeMs / 1000));
  return `${name}=${value}; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=${maxAge}`;
}

/** Attaches the live session (if any) to res.locals. */
export function loadSession(services: Services) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const sessionId = readCookie(req, services.config.cookieName);
    const session = sessionId ? await services.sessions.resolve(sessionId) : null;
    res.locals.sessionId = session ? sessionId : null;
    res.locals.session = session;
    next();
  };
}

/** The live session loadSession found for this request, if any. */
export function currentSession(res: Response): Session | null {
  const value = res.locals.session as Session | null | undefined;
  return value ?? null;
}

export function currentSessionId(res: Response): string | null {
  const value = res.locals.sessionId as string | null | undefined;
  return value ?? null;
}

export function requireSignedIn(session: Session | null): Session {
  if (!session) throw new HttpError('UNAUTHENTICATED', 'Sign in first (or the session expired).');
  return session;
}

export function requireSession(res: Response): Session {
  return requireSignedIn(currentSession(res));
}

/** The session, when it is signed in and its operator holds `role` (or a higher one). */
export function requireRoleIn(session: Session | null, role: Role): Session {
  const signedIn = requireSignedIn(session);
  requireRoleOf(signedIn, role);
  return signedIn;
}

export function requireRole(res: Response, role: Role): Session {
  return requireRoleIn(currentSession(res), role);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A mutating request (and the event socket) must come from our own origin: Origin's scheme is
 * the listener's (an https page is another origin than our http port) and its host the Host,
 * or Origin is exactly the configured public origin (PUBLIC_ORIGIN: the https address a
 * TLS-terminating proxy serves us at, while we ourselves speak plain http). Only that exact
 * string: no header the proxy or the client sends can widen it.
 */
export function isSameOrigin(req: IncomingMessage, publicOrigin: string | null): boolean {
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return false;
  if (publicOrigin !== null && origin === publicOrigin) return true;
  const host = req.headers.host;
  if (!host) return false;
  const scheme = 'encrypted' in req.socket ? 'https:' : 'http:';
  try {
    const url = new URL(origin);
    return url.protocol === scheme && url.host === host;
  } catch {
    return false;
  }
}

export function tokensEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Mutating requests: same-origin Origin always; X-CSRF-Token equal to the session's token
 * for every route but login (which has no session yet).
 */
export function csrfGuard(options: { exempt: readonly string[]; publicOrigin: string | null }) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (SAFE_METHODS.has(req.method)) {
      next();
      return;
    }
    if (!isSameOrigin(req, options.publicOrigin))
      throw new HttpError('FORBIDDEN', 'Cross-origin or origin-less request refused.');
    if (options.exempt.includes(req.path)) {
      next();
      return;
    }
    const session = requireSession(res);
    const token = req.headers['x-csrf-token'];
    if (typeof token !== 'string' || !tokensEqual(token, session.csrfToken)) {
      throw new HttpError('FORBIDDEN', 'Missing or wrong CSRF token.');
    }
    next();
  };
}
