import { hash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  RoleSchema,
  STEP_UP_FRESH_MS,
  SignInStepSchema,
  type Role,
  type SignInStep,
} from '@settlement/protocol';
import type { Sql } from './sql';

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

type SessionRow = {
  id_hash: string;
  handle: string;
  operator_id: number;
  username: string;
  role: Role;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
  stage: SessionStage;
  step_up_at: number | null;
  passkeys: number;
};

const ROLES: ReadonlySet<string> = new Set(RoleSchema.options);
const STAGES: ReadonlySet<string> = new Set(['complete', ...SignInStepSchema.options]);
const isInt = (value: unknown): value is number => Number.isInteger(value);
const isText = (value: unknown): value is string => typeof value === 'string';

/**
 * The session row of SELECT, checked field by field. Every proxied request reads one, and a
 * zod object parse of it was ~3% of the BFF's busy time under load; the checks are the same
 * (strings, integers, a known role and stage), and a row that fails them is refused likewise.
 */
function sessionRowOf(row: unknown): SessionRow {
  const r = row as Record<keyof SessionRow, unknown>;
  if (
    isText(r.id_hash) &&
    isText(r.handle) &&
    isInt(r.operator_id) &&
    isText(r.username) &&
    isText(r.role) &&
    ROLES.has(r.role) &&
    isText(r.csrf_token) &&
    isInt(r.created_at) &&
    isInt(r.last_seen_at) &&
    isText(r.stage) &&
    STAGES.has(r.stage) &&
    (r.step_up_at === null || isInt(r.step_up_at)) &&
    isInt(r.passkeys)
  ) {
    return r as SessionRow;
  }
  throw new Error('a session row does not have the expected shape');
}

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
/** One-shot `hash` (Node >= 20.12): no Hash object per request, a third of createHash's time. */
function hashSessionId(sessionId: string): string {
  return hash('sha256', sessionId, 'hex');
}

export type SessionLimits = { idleMs: number; absoluteMs: number };

/**
 * How long a read of the interface may go on a session row this process read before
 * (`resolveForRead`); as long as the row's own last-seen touch is apart. What it saves: the
 * session SELECT, ~25-35 us of a proxied read's ~230 us (BENCHMARKS.md, group 2).
 */
export const READ_SESSION_REUSE_MS = 1_000;
/** Bound of the rows kept for reads: live sessions, never what a forged cookie names. */
const MAX_REUSED_SESSIONS = 10_000;

export type SessionStore = {
  /** A fresh session (rotation: the caller removes any previous one). */
  create(
    operatorId: number,
    options?: { stage?: SessionStage; userAgent?: string; ip?: string },
  ): Promise<{ sessionId: string; csrfToken: string; idHash: string }>;
  /** The live, signed-in session of this id; a session still signing in is not one. */
  resolve(sessionId: string): Promise<Session | null>;
  /**
   * `resolve` for a read of the interface: may answer from a row read here in the last
   * READ_SESSION_REUSE_MS. A change made in this process (sign-out, any session's end, stage,
   * step-up, an operator's role or state) is seen at once; one made by another replica or the
   * operators CLI within that second, at the row's next read. Writes never use it.
   */
  resolveForRead(sessionId: string): Promise<Session | null>;
  /** Drops the row kept for reads of this hash, or every one (an operator changed here). */
  forgetReused(idHash?: string): void;
  /** The live session of this id at any sign-in stage (the sign-in routes only). */
  resolveAny(sessionId: string): Promise<Session | null>;
  /** Whether a signed-in session row (by hash) is still alive, without touching it. */
  isAlive(idHash: string): Promise<boolean>;
  setStage(idHash: string, stage: SessionStage): Promise<void>;
  /** A user-verified assertion just now: sensitive actions are allowed for 5 minutes. */
  recordStepUp(idHash: string): Promise<number>;
  /** Signed-in, unexpired sessions of an operator, most recently used first. */
  listOf(username: string): Promise<SessionListing[]>;
  byHandle(handle: string): Promise<SessionListing | null>;
  removeHash(idHash: string): Promise<void>;
  /** Ends every other session of the operator; returns how many. */
  removeOthers(operatorId: number, keepIdHash: string): Promise<number>;
  remove(sessionId: string): Promise<void>;
  removeExpired(): Promise<number>;
};

// A disabled operator has no session, even if a row were left behind.
const SELECT = `SELECT s.id_hash, s.handle, s.operator_id, o.username, o.role, s.csrf_token,
    s.created_at, s.last_seen_at, s.stage, s.step_up_at,
    (SELECT COUNT(*) FROM passkeys p WHERE p.operator_id = s.operator_id) AS passkeys
  FROM sessions s JOIN operators o ON o.id = s.operator_id
  WHERE s.id_hash = ? AND o.disabled = 0`;
const LISTING = `SELECT s.handle, s.id_hash, o.username, s.user_agent, s.ip, s.created_at,
    s.last_seen_at FROM sessions s JOIN operators o ON o.id = s.operator_id`;
const REMOVE = 'DELETE FROM sessions WHERE id_hash = ?';

/** Sessions live in the database, so every replica sharing it knows every session. */
export function createSessionStore(
  db: Sql,
  limits: SessionLimits,
  now: () => number = Date.now,
): SessionStore {
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

  const sessionAt = (r: SessionRow, at: number): Session => ({
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
    needsStepUp: r.passkeys > 0 && (r.step_up_at === null || at - r.step_up_at > STEP_UP_FRESH_MS),
  });

  /** The live row of this hash in any stage, touched; null when unknown or expired. */
  async function resolveRow(idHash: string, at: number): Promise<SessionRow | null> {
    const found = await db.get(SELECT, [idHash]);
    if (found === undefined) return null;
    const row = sessionRowOf(found);
    if (isExpired({ createdAt: row.created_at, lastSeenAt: row.last_seen_at }, at)) {
      await db.run(REMOVE, [idHash]);
      return null;
    }
    // One write per session per touch interval, not per request (the proxy's hot path).
    if (at - row.last_seen_at >= touchIntervalMs) {
      await db.run('UPDATE sessions SET last_seen_at = ? WHERE id_hash = ?', [at, idHash]);
      return { ...row, last_seen_at: at };
    }
    return row;
  }

  async function resolveHash(idHash: string): Promise<Session | null> {
    const at = now();
    const row = await resolveRow(idHash, at);
    return row ? sessionAt(row, at) : null;
  }

  /** Signed-in rows recently read, for reads (resolveForRead); keyed by the id's hash. */
  const reused = new Map<string, { row: SessionRow; readAt: number }>();
  /**
   * Counts every forgetting. A read whose SELECT was under way when a row was forgotten may have
   * read it before the change: it answers with it, but does not keep it. Stores forget after
   * their write, so a read that starts later sees the change in the database.
   */
  let forgotten = 0;
  const forget = (idHash?: string) => {
    forgotten += 1;
    if (idHash === undefined) reused.clear();
    else reused.delete(idHash);
  };

  return {
    async create(operatorId, options = {}) {
      const sessionId = randomBytes(32).toString('base64url');
      const csrfToken = randomBytes(32).toString('base64url');
      const handle = randomBytes(16).toString('base64url');
      const at = now();
      const idHash = hashSessionId(sessionId);
      await db.run(
        `INSERT INTO sessions (id_hash, handle, operator_id, csrf_token, created_at, last_seen_at,
           stage, user_agent, ip) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          idHash,
          handle,
          operatorId,
          csrfToken,
          at,
          at,
          options.stage ?? 'complete',
          (options.userAgent ?? '').slice(0, 512),
          (options.ip ?? '').slice(0, 64),
        ],
      );
      return { sessionId, csrfToken, idHash };
    },
    async resolve(sessionId) {
      const session = await resolveHash(hashSessionId(sessionId));
      return session?.stage === 'complete' ? session : null;
    },
    async resolveForRead(sessionId) {
      const idHash = hashSessionId(sessionId);
      const at = now();
      const kept = reused.get(idHash);
      if (kept && at - kept.readAt < READ_SESSION_REUSE_MS) {
        const { row } = kept;
        if (!isExpired({ createdAt: row.created_at, lastSeenAt: row.last_seen_at }, at)) {
          return sessionAt(row, at);
        }
      }
      const before = forgotten;
      const row = await resolveRow(idHash, at);
      if (row?.stage !== 'complete') {
        reused.delete(idHash);
        return null;
      }
      if (forgotten === before) {
        if (reused.size >= MAX_REUSED_SESSIONS) reused.clear();
        reused.set(idHash, { row, readAt: at });
      }
      return sessionAt(row, at);
    },
    forgetReused: forget,
    resolveAny: (sessionId) => resolveHash(hashSessionId(sessionId)),
    async isAlive(idHash) {
      const row = await db.get(SELECT, [idHash]);
      if (row === undefined) return false;
      const r = sessionRowOf(row);
      return (
        r.stage === 'complete' &&
        !isExpired({ createdAt: r.created_at, lastSeenAt: r.last_seen_at }, now())
      );
    },
    async setStage(idHash, stage) {
      await db.run('UPDATE sessions SET stage = ? WHERE id_hash = ?', [stage, idHash]);
      forget(idHash);
    },
    async recordStepUp(idHash) {
      const at = now();
      await db.run('UPDATE sessions SET step_up_at = ? WHERE id_hash = ?', [at, idHash]);
      forget(idHash);
      return at;
    },
    async listOf(username) {
      const at = now();
      const rows = await db.all(
        `${LISTING} WHERE o.username = ? AND s.stage = 'complete' AND s.last_seen_at >= ?
           AND s.created_at >= ? ORDER BY s.last_seen_at DESC`,
        [username, at - limits.idleMs, at - limits.absoluteMs],
      );
      return rows.map(toListing);
    },
    async byHandle(handle) {
      const row = await db.get(`${LISTING} WHERE s.handle = ?`, [handle]);
      return row === undefined ? null : toListing(row);
    },
    async removeHash(idHash) {
      await db.run(REMOVE, [idHash]);
      forget(idHash);
    },
    async removeOthers(operatorId, keepIdHash) {
      const ended = await db.run('DELETE FROM sessions WHERE operator_id = ? AND id_hash != ?', [
        operatorId,
        keepIdHash,
      ]);
      for (const [idHash, { row }] of reused) {
        if (row.operator_id === operatorId && idHash !== keepIdHash) reused.delete(idHash);
      }
      forgotten += 1;
      return ended;
    },
    async remove(sessionId) {
      const idHash = hashSessionId(sessionId);
      await db.run(REMOVE, [idHash]);
      forget(idHash);
    },
    removeExpired() {
      const at = now();
      return db.run('DELETE FROM sessions WHERE last_seen_at < ? OR created_at < ?', [
        at - limits.idleMs,
        at - limits.absoluteMs,
      ]);
    },
  };
}
