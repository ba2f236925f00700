import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  RoleSchema,
  STEP_UP_FRESH_MS,
  SignInStepSchema,
  type Role,
  type SignInStep,
} from '@settlement/protocol';
import type { Db } from './db';

/** `complete`: signed in; any other stage can only finish signing in (or sign out). */
export type SessionStage = 'complete' | SignInStep;

export type Session = {
  idHash: string;
  /** The opaque id the browser may see (session lists); unrelated to the cookie. */
  handle: string;
  operatorId: number;
  username: string;
  role: Role;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
  stage: SessionStage;
  stepUpAt: number | null;
  /** The operator has a passkey and no user-verified assertion in the last 5 minutes. */
  needsStepUp: boolean;
};

export type SessionListing = {
  handle: string;
  idHash: string;
  username: string;
  userAgent: string;
  ip: string;
  createdAt: number;
  lastSeenAt: number;
};

const StageSchema = z.union([z.literal('complete'), SignInStepSchema]);

const SessionRowSchema = z.object({
  id_hash: z.string(),
  handle: z.string(),
  operator_id: z.number().int(),
  username: z.string(),
  role: RoleSchema,
  csrf_token: z.string(),
  created_at: z.number().int(),
  last_seen_at: z.number().int(),
  stage: StageSchema,
  step_up_at: z.number().int().nullable(),
  passkeys: z.number().int(),
});

const ListingRowSchema = z.object({
  handle: z.string(),
  id_hash: z.string(),
  username: z.string(),
  user_agent: z.string(),
  ip: z.string(),
  created_at: z.number().int(),
  last_seen_at: z.number().int(),
});

/** Only the SHA-256 of a session id is stored; the id itself lives in the cookie alone. */
function hashSessionId(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}

export type SessionLimits = { idleMs: number; absoluteMs: number };
export type SessionStore = ReturnType<typeof createSessionStore>;

export function createSessionStore(db: Db, limits: SessionLimits, now: () => number = Date.now) {
  const insert = db.prepare(
    `INSERT INTO sessions (id_hash, handle, operator_id, csrf_token, created_at, last_seen_at, stage,
       user_agent, ip) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // A disabled operator has no session, even if a row were left behind.
  const select = db.prepare(
    `SELECT s.id_hash, s.handle, s.operator_id, o.username, o.role, s.csrf_token, s.created_at,
       s.last_seen_at, s.stage, s.step_up_at,
       (SELECT COUNT(*) FROM passkeys p WHERE p.operator_id = s.operator_id) AS passkeys
     FROM sessions s JOIN operators o ON o.id = s.operator_id
     WHERE s.id_hash = ? AND o.disabled = 0`,
  );
  const touch = db.prepare('UPDATE sessions SET last_seen_at = ? WHERE id_hash = ?');
  const remove = db.prepare('DELETE FROM sessions WHERE id_hash = ?');
  const expire = db.prepare('DELETE FROM sessions WHERE last_seen_at < ? OR created_at < ?');
  const setStage = db.prepare('UPDATE sessions SET stage = ? WHERE id_hash = ?');
  const setStepUp = db.prepare('UPDATE sessions SET step_up_at = ? WHERE id_hash = ?');
  const listOf = db.prepare(
    `SELECT s.handle, s.id_hash, o.username, s.user_agent, s.ip, s.created_at, s.last_seen_at
     FROM sessions s JOIN operators o ON o.id = s.operator_id
     WHERE o.username = ? AND s.stage = 'complete' AND s.last_seen_at >= ? AND s.created_at >= ?
     ORDER BY s.last_seen_at DESC`,
  );
  const byHandle = db.prepare(
    `SELECT s.handle, s.id_hash, o.username, s.user_agent, s.ip, s.created_at, s.last_seen_at
     FROM sessions s JOIN operators o ON o.id = s.operator_id WHERE s.handle = ?`,
  );
  const removeOthers = db.prepare('DELETE FROM sessions WHERE operator_id = ? AND id_hash != ?');

  const touchIntervalMs = Math.min(1_000, Math.floor(limits.idleMs / 10));
  const isExpired = (s: { createdAt: number; lastSeenAt: number }, at: number) =>
    at - s.lastSeenAt > limits.idleMs || at - s.createdAt > limits.absoluteMs;

  const toListing = (row: unknown): SessionListing => {
    const r = ListingRowSchema.parse(row);
    return {
      handle: r.handle,
      idHash: r.id_hash,
      username: r.username,
      userAgent: r.user_agent,
      ip: r.ip,
      createdAt: r.created_at,
      lastSeenAt: r.last_seen_at,
    };
  };

  /** The live session of this hash in any stage, touched; null when unknown or expired. */
  function resolveHash(idHash: string): Session | null {
    const row = select.get(idHash);
    if (row === undefined) return null;
    const r = SessionRowSchema.parse(row);
    const at = now();
    const session: Session = {
      idHash: r.id_hash,
      handle: r.handle,
      operatorId: r.operator_id,
      username: r.username,
      role: r.role,
      csrfToken: r.csrf_token,
      createdAt: r.created_at,
      lastSeenAt: r.last_seen_at,
      stage: r.stage,
      stepUpAt: r.step_up_at,
      needsStepUp:
        r.passkeys > 0 && (r.step_up_at === null || at - r.step_up_at > STEP_UP_FRESH_MS),
    };
    if (isExpired(session, at)) {
      remove.run(idHash);
      return null;
    }
    // One write per session per touch interval, not per request (the proxy's hot path).
    if (at - session.lastSeenAt >= touchIntervalMs) {
      touch.run(at, idHash);
      return { ...session, lastSeenAt: at };
    }
    return session;
  }

  return {
    /** A fresh session (rotation: the caller removes any previous one). */
    create(
      operatorId: number,
      options: { stage?: SessionStage; userAgent?: string; ip?: string } = {},
    ): { sessionId: string; csrfToken: string; idHash: string } {
      const sessionId = randomBytes(32).toString('base64url');
      const csrfToken = randomBytes(32).toString('base64url');
      const handle = randomBytes(16).toString('base64url');
      const at = now();
      const idHash = hashSessionId(sessionId);
      insert.run(
        idHash,
        handle,
        operatorId,
        csrfToken,
        at,
        at,
        options.stage ?? 'complete',
        (options.userAgent ?? '').slice(0, 512),
        (options.ip ?? '').slice(0, 64),
      );
      return { sessionId, csrfToken, idHash };
    },
    /** The live, signed-in session of this id; a session still signing in is not one. */
    resolve(sessionId: string): Session | null {
      const session = resolveHash(hashSessionId(sessionId));
      return session?.stage === 'complete' ? session : null;
    },
    /** The live session of this id at any sign-in stage (the sign-in routes only). */
    resolveAny(sessionId: string): Session | null {
      return resolveHash(hashSessionId(sessionId));
    },
    /** Whether a signed-in session row (by hash) is still alive, without touching it. */
    isAlive(idHash: string): boolean {
      const row = select.get(idHash);
      if (row === undefined) return false;
      const r = SessionRowSchema.parse(row);
      return (
        r.stage === 'complete' &&
        !isExpired({ createdAt: r.created_at, lastSeenAt: r.last_seen_at }, now())
      );
    },
    setStage(idHash: string, stage: SessionStage): void {
      setStage.run(stage, idHash);
    },
    /** A user-verified assertion just now: sensitive actions are allowed for 5 minutes. */
    recordStepUp(idHash: string): number {
      const at = now();
      setStepUp.run(at, idHash);
      return at;
    },
    /** Signed-in, unexpired sessions of an operator, most recently used first. */
    listOf(username: string): SessionListing[] {
      const at = now();
      return listOf.all(username, at - limits.idleMs, at - limits.absoluteMs).map(toListing);
    },
    byHandle(handle: string): SessionListing | null {
      const row = byHandle.get(handle);
      return row === undefined ? null : toListing(row);
    },
    removeHash(idHash: string): void {
      remove.run(idHash);
    },
    /** Ends every other session of the operator; returns how many. */
    removeOthers(operatorId: number, keepIdHash: string): number {
      return removeOthers.run(operatorId, keepIdHash).changes;
    },
    remove(sessionId: string): void {
      remove.run(hashSessionId(sessionId));
    },
    removeExpired(): number {
      const at = now();
      return expire.run(at - limits.idleMs, at - limits.absoluteMs).changes;
    },
  };
}
