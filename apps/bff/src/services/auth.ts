import {
  ChangePasswordRequestSchema,
  hasRole,
  LoginRequestSchema,
  type Me,
  type PendingSignIn,
  type Role,
  type SignInResult,
} from '@settlement/protocol';
import { HttpError } from '../errors';
import { auditSecurity } from '../security/audit';
import type { Operator } from '../store/operators';
import type { Session, SessionStage } from '../store/sessions';
import type { Services } from './services';
import { DUMMY_HASH, hashPassword, passwordWeakness, verifyPassword } from './passwords';

export { LoginRequestSchema };

export type Identity = Me & {
  operator: { username: string; role: Role };
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
 * The step after `passed`: password, then replacing a one-time password, then a passkey
 * assertion (the operator has one) or enrollment (passkeys required, none yet), then done.
 */
function stageAfter(
  services: Services,
  operator: Pick<Operator, 'mustChangePassword' | 'passkeys'>,
  passed: 'password' | 'change-password' | 'passkey' | 'enroll-passkey',
): SessionStage {
  if (passed === 'password' && operator.mustChangePassword) return 'change-password';
  if (passed === 'password' || passed === 'change-password') {
    if (operator.passkeys > 0) return 'passkey';
    if (services.config.requirePasskeys) return 'enroll-passkey';
  }
  return 'complete';
}

/** What a sign-in step answers: the identity when done, else the next step. */
function signInResultOf(
  services: Services,
  session: Pick<Session, 'username' | 'role' | 'csrfToken'>,
  stage: SessionStage,
): SignInResult {
  if (stage === 'complete') return identityOf(services, session);
  return {
    signInStep: stage,
    operator: { username: session.username, role: session.role },
    csrfToken: session.csrfToken,
    upstream: { kind: services.config.upstreamKind },
  } satisfies PendingSignIn;
}

/** Moves a session to its next stage; on completion the sign-in is recorded and audited. */
export async function advanceSignIn(
  services: Services,
  session: Session,
  passed: 'change-password' | 'passkey' | 'enroll-passkey',
): Promise<SignInResult> {
  const operator = await services.operators.findById(session.operatorId);
  if (!operator) throw new HttpError('UNAUTHENTICATED', 'Sign in first.');
  const stage = stageAfter(services, operator, passed);
  await services.sessions.setStage(session.idHash, stage);
  if (stage === 'complete') await completed(services, operator);
  return signInResultOf(services, session, stage);
}

async function completed(services: Services, operator: Operator): Promise<void> {
  await services.operators.recordSignIn(operator.id);
  await audit(services, operator.username, 'success');
}

/**
 * Verifies credentials (throttled per username and address, and per address across
 * usernames), then opens a new session at its next sign-in stage; the previous session of
 * this browser, if any, is removed (rotation). Unknown user, disabled operator and wrong
 * password fail identically.
 */
export async function login(
  services: Services,
  input: {
    username: string;
    password: string;
    ip: string;
    userAgent: string;
    previousSessionId: string | null;
  },
): Promise<{ sessionId: string; result: SignInResult }> {
  const { username, ip } = input;
  const waitMs = await services.throttle.retryAfterMs(username, ip);
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    await audit(services, username, 'throttled');
    throw new HttpError('RATE_LIMITED', undefined, [{ retryAfterSeconds: seconds }], {
      'retry-after': String(seconds),
    });
  }
  const operator = await services.operators.findByUsername(username);
  const isValid = await verifyPassword(input.password, operator?.passwordHash ?? DUMMY_HASH);
  if (!operator || !isValid || operator.isDisabled) {
    await services.throttle.recordFailure(username, ip);
    await audit(services, username, operator?.isDisabled && isValid ? 'disabled' : 'failure');
    throw new HttpError('UNAUTHENTICATED', 'Wrong username or password.');
  }
  await services.throttle.recordSuccess(username, ip);
  if (input.previousSessionId) await services.sessions.remove(input.previousSessionId);
  const stage = stageAfter(services, operator, 'password');
  const { sessionId, csrfToken } = await services.sessions.create(operator.id, {
    stage,
    userAgent: input.userAgent,
    ip,
  });
  if (stage === 'complete') await completed(services, operator);
  else await audit(services, operator.username, `password-ok:${stage}`);
  return {
    sessionId,
    result: signInResultOf(
      services,
      { username: operator.username, role: operator.role, csrfToken },
      stage,
    ),
  };
}

/**
 * The operator replaces their password (a one-time password at sign-in, or by choice): the
 * current one is checked, the new one must be strong; every other session of theirs ends.
 */
export async function changePassword(
  services: Services,
  session: Session,
  body: unknown,
): Promise<SignInResult> {
  const parsed = ChangePasswordRequestSchema.safeParse(body);
  if (!parsed.success) {
    const tooShort = parsed.error.issues.some((issue) => issue.path[0] === 'newPassword');
    if (tooShort) throw new HttpError('PASSWORD_TOO_WEAK', 'Use at least 12 characters.');
    throw new HttpError('VALIDATION_ERROR', 'currentPassword and newPassword are required.');
  }
  const operator = await services.operators.findById(session.operatorId);
  if (!operator) throw new HttpError('UNAUTHENTICATED', 'Sign in first.');
  if (!(await verifyPassword(parsed.data.currentPassword, operator.passwordHash))) {
    await auditSecurity(services, {
      operator: operator.username,
      action: 'password.change',
      outcome: 'failure',
    });
    throw new HttpError('FORBIDDEN', 'The current password is not correct.');
  }
  const { newPassword } = parsed.data;
  if (newPassword === parsed.data.currentPassword) {
    throw new HttpError('PASSWORD_TOO_WEAK', 'Choose a password different from the current one.');
  }
  const weakness = passwordWeakness(newPassword, [operator.username]);
  if (weakness) throw new HttpError('PASSWORD_TOO_WEAK', weakness);
  await services.operators.changeOwnPassword(
    operator.id,
    await hashPassword(newPassword),
    session.idHash,
  );
  // The operator's other sessions ended with it: no read here goes on a row kept for reads.
  services.sessions.forgetReused();
  await auditSecurity(services, {
    operator: operator.username,
    action: 'password.change',
    outcome: 'success',
  });
  if (session.stage === 'change-password') {
    return advanceSignIn(services, session, 'change-password');
  }
  return signInResultOf(services, session, session.stage);
}

export async function logout(
  services: Services,
  sessionId: string,
  username: string,
): Promise<void> {
  await services.sessions.remove(sessionId);
  await services.logs.audit({
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

async function audit(services: Services, username: string, outcome: string): Promise<void> {
  await auditSecurity(services, { operator: username, action: 'login', outcome });
  services.logger.info({ operator: username.slice(0, 128), outcome }, 'login');
}
