import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Db } from './db';
import { RoleSchema, type Role } from './operators';

export type Session = {
  idHash: string;
  operatorId: number;
  username: string;
  role: Role;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
};

const SessionRowSchema = z.object({
  id_hash: z.string(),
  operator_id: z.number().int(),
  username: z.string(),
  role: RoleSchema,
  csrf_token: z.string(),
  created_at: z.number().int(),
  last_seen_at: z.number().int(),
});

/** Only the SHA-256 of a session id is stored; the id itself lives in the cookie alone. */
export function hashSessionId(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}

export type SessionLimits = { idleMs: number; absoluteMs: number };
export type SessionStore = ReturnType<typeof createSessionStore>;

export function createSessionStore(db: Db, limits: SessionLimits, now: () => number = Date.now) {
  const insert = db.prepare(
    'INSERT INTO sessions (id_hash, operator_id, csrf_token, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)',
  );
  const select = db.prepare(
    `SELECT s.id_hash, s.operator_id, o.username, o.role, s.csrf_token, s.created_at, s.last_seen_at
     FROM sessions s JOIN operators o ON o.id = s.operator_id WHERE s.id_hash = ?`,
  );
  const touch = db.prepare('UPDATE sessions SET last_seen_at = ? WHERE id_hash = ?');
  const remove = db.prepare('DELETE FROM sessions WHERE id_hash = ?');
  const expire = db.prepare('DELETE FROM sessions WHERE last_seen_at < ? OR created_at < ?');

  const touchIntervalMs = Math.min(1_000, Math.floor(limits.idleMs / 10));
  const isExpired = (s: { createdAt: number; lastSeenAt: number }, at: number) =>
    at - s.lastSeenAt > limits.idleMs || at - s.createdAt > limits.absoluteMs;

  return {
    /** A fresh session (rotation: the caller removes any previous one). */
    create(operatorId: number): { sessionId: string; csrfToken: string } {
      const sessionId = randomBytes(32).toString('base64url');
      const csrfToken = randomBytes(32).toString('base64url');
      const at = now();
      insert.run(hashSessionId(sessionId), operatorId, csrfToken, at, at);
      return { sessionId, csrfToken };
    },
    /** The live session of this id, touched; null when unknown or expired (then removed). */
    resolve(sessionId: string): Session | null {
      const idHash = hashSessionId(sessionId);
      const row = select.get(idHash);
      if (row === undefined) return null;
      const r = SessionRowSchema.parse(row);
      const session: Session = {
        idHash: r.id_hash,
        operatorId: r.operator_id,
        username: r.username,
        role: r.role,
        csrfToken: r.csrf_token,
        createdAt: r.created_at,
        lastSeenAt: r.last_seen_at,
      };
      const at = now();
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
    },
    /** Whether a session row (by hash) is still alive, without touching it. */
    isAlive(idHash: string): boolean {
      const row = select.get(idHash);
      if (row === undefined) return false;
      const r = SessionRowSchema.parse(row);
      return !isExpired({ createdAt: r.created_at, lastSeenAt: r.last_seen_at }, now());
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
