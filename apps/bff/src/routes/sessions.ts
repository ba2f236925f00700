import express, { type Router } from 'express';
import { hasRole, type SessionInfo, type SessionList } from '@settlement/protocol';
import { HttpError } from '../errors';
import { auditSecurity } from '../security/audit';
import { deviceOf } from '../security/device';
import type { Services } from '../services/services';
import type { Session, SessionListing } from '../store/sessions';
import { requireSession } from './guards';

function toInfo(listing: SessionListing, current: Session): SessionInfo {
  return {
    id: listing.handle,
    username: listing.username,
    device: deviceOf(listing.userAgent),
    userAgent: listing.userAgent,
    ip: listing.ip,
    createdAt: new Date(listing.createdAt).toISOString(),
    lastSeenAt: new Date(listing.lastSeenAt).toISOString(),
    isCurrent: listing.idHash === current.idHash,
  };
}

/**
 * /bff/auth/sessions: an operator's own sessions (an admin: anyone's, `?username=`), ending
 * one by its opaque handle, or every other one. An ended session's sockets close at once, here
 * and on every other replica (`onLogout` tells them through the cluster bus).
 */
export function sessionRoutes(
  services: Services,
  hooks: { onLogout: (sessionHash: string) => void },
): Router {
  const router = express.Router();

  router.get('/', async (req, res) => {
    const session = requireSession(res);
    const asked = typeof req.query.username === 'string' ? req.query.username : session.username;
    if (asked !== session.username && !hasRole(session.role, 'admin')) {
      throw new HttpError('FORBIDDEN', "Only an admin can see another operator's sessions.");
    }
    res.setHeader('cache-control', 'no-store');
    res.json({
      items: (await services.sessions.listOf(asked)).map((listing) => toInfo(listing, session)),
    } satisfies SessionList);
  });

  router.delete('/', async (_req, res) => {
    const session = requireSession(res);
    const others = (await services.sessions.listOf(session.username)).filter(
      (listing) => listing.idHash !== session.idHash,
    );
    const ended = await services.sessions.removeOthers(session.operatorId, session.idHash);
    for (const listing of others) hooks.onLogout(listing.idHash);
    await auditSecurity(services, {
      operator: session.username,
      action: 'session.end',
      outcome: 'success',
      detail: `every other session of ${session.username} (${ended})`,
    });
    res.json({ ended });
  });

  router.delete('/:id', async (req, res) => {
    const session = requireSession(res);
    const target = await services.sessions.byHandle(req.params.id);
    const isOwn = target?.username === session.username;
    // Another operator's session is not even confirmed to exist for a non-admin.
    if (!target || (!isOwn && !hasRole(session.role, 'admin'))) {
      throw new HttpError('RESOURCE_NOT_FOUND', 'No such session.');
    }
    await services.sessions.removeHash(target.idHash);
    hooks.onLogout(target.idHash);
    await auditSecurity(services, {
      operator: session.username,
      action: 'session.end',
      outcome: 'success',
      resourceId: target.handle,
      detail: `session of ${target.username}`,
    });
    res.status(204).end();
  });

  return router;
}
