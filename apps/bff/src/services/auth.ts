import { z } from 'zod';
import { HttpError } from '../errors';
import { hasRole, type Role } from '../store/operators';
import type { Session } from '../store/sessions';
import type { Services } from './context';
import { DUMMY_HASH, verifyPassword } from './passwords';

export const LoginRequestSchema = z.object({
  username: z.string().min(1).max(128),
  password: z.string().min(1).max(1024),
});

export type Identity = {
  operator: { username: string; role: Role };
  csrfToken: string;
  upstream: { kind: 'sandbox' | 'remote' };
  organization: { id: string };
};

export function identityOf(
  services: Services,
  session: Pick<Session, 'username' | 'role' | 'csrfToken'>,
): Identity {
  return {
    operator: { username: session.username, role: session.role },
    csrfToken: session.csrfToken,
    upstream: { kind: services.config.upstreamKind },
    organization: { id: services.upstream.orgId },
  };
}

/**
 * Verifies credentials (throttled per username and address), then opens a new session; the
 * previous session of this browser, if any, is removed (rotation). Unknown user and wrong
 * password fail identically.
 */
export async function login(
  services: Services,
  input: { username: string; password: string; ip: string; previousSessionId: string | null },
): Promise<{ sessionId: string; identity: Identity }> {
  const { username, ip } = input;
  const waitMs = services.throttle.retryAfterMs(username, ip);
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    audit(services, username, 'throttled');
    throw new HttpError('RATE_LIMITED', undefined, [{ retryAfterSeconds: seconds }], {
      'retry-after': String(seconds),
    });
  }
  const operator = services.operators.findByUsername(username);
  const isValid = await verifyPassword(input.password, operator?.passwordHash ?? DUMMY_HASH);
  if (!operator || !isValid) {
    services.throttle.recordFailure(username, ip);
    audit(services, username, 'failure');
    throw new HttpError('UNAUTHENTICATED', 'Wrong username or password.');
  }
  services.throttle.recordSuccess(username, ip);
  if (input.previousSessionId) services.sessions.remove(input.previousSessionId);
  const { sessionId, csrfToken } = services.sessions.create(operator.id);
  audit(services, operator.username, 'success');
  return {
    sessionId,
    identity: identityOf(services, { username: operator.username, role: operator.role, csrfToken }),
  };
}

export function logout(services: Services, sessionId: string, username: string): void {
  services.sessions.remove(sessionId);
  services.logs.audit({
    at: services.now(),
    operator: username,
    action: 'logout',
    outcome: 'success',
    operationId: null,
    idempotencyKey: null,
    upstreamRequestId: null,
    correlationId: null,
    resourceId: null,
    detail: null,
  });
}

export function requireRoleOf(session: Session, role: Role): void {
  if (!hasRole(session.role, role)) {
    throw new HttpError('FORBIDDEN', `This needs the ${role} role.`);
  }
}

function audit(services: Services, username: string, outcome: string): void {
  services.logs.audit({
    at: services.now(),
    operator: username.slice(0, 128),
    action: 'login',
    outcome,
    operationId: null,
    idempotencyKey: null,
    upstreamRequestId: null,
    correlationId: null,
    resourceId: null,
    detail: null,
  });
  services.logger.info({ operator: username.slice(0, 128), outcome }, 'login');
}
