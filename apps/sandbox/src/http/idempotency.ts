import type { Request, Response } from 'express';
import { HttpError } from '../errors';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/db';
import { rawBodyHash, sha256HexOf } from './body';

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

type IdempotencyConflictCode = 'IDEMPOTENCY_CONFLICT' | 'mpc.errors.IDEMPOTENCY_CONFLICT';

/** The X-Idempotency-Key of a request: 400 when missing or not 1-255 visible ASCII. */
export function idempotencyKeyOf(req: Request): string {
  const value = req.headers['x-idempotency-key'];
  if (value === undefined) throw new HttpError('IDEMPOTENCY_KEY_REQUIRED');
  if (typeof value !== 'string' || !KEY_PATTERN.test(value)) {
    throw new HttpError(
      'IDEMPOTENCY_KEY_INVALID',
      'X-Idempotency-Key must be 1-255 visible ASCII characters.',
    );
  }
  return value;
}

/** method + raw target + body hash: any change of these with the same key is a conflict. */
export function fingerprintOf(req: Request): string {
  return sha256HexOf(`${req.method}\n${req.originalUrl}\n${rawBodyHash(req)}`);
}

export type IdempotentOutcome = { status: number; body: string; isReplay: boolean };

export type IdempotentRequest = {
  orgId: string;
  key: string;
  fingerprint: string;
  conflictCode: IdempotencyConflictCode;
  nowMs: number;
};

/**
 * Runs `operation` at most once per (org, key). The operation runs inside one SQLite
 * transaction together with the idempotency record, so its writes, its outbox events and the
 * record commit or roll back together. A replay returns the stored status and exact body bytes;
 * the same key with another fingerprint is a conflict. Only successful (2xx) outcomes are
 * recorded: a rejected request created nothing, so retrying it may still succeed.
 *
 * Everything here is synchronous on one connection, so concurrent requests with one key are
 * serialized: the first runs, the others find its record and replay it.
 */
export function runIdempotent(
  db: Db,
  request: IdempotentRequest,
  operation: () => { status: number; body: unknown },
): IdempotentOutcome {
  const { select, remove, insert } = statementsOf(db);
  return db
    .transaction((): IdempotentOutcome => {
      const existing = select.get(request.orgId, request.key);
      if (existing && existing.created_at > request.nowMs - IDEMPOTENCY_RETENTION_MS) {
        if (existing.fingerprint !== request.fingerprint) {
          throw new HttpError(request.conflictCode);
        }
        return { status: existing.status, body: existing.body, isReplay: true };
      }
      if (existing) remove.run(request.orgId, request.key);
      const result = operation();
      const body = JSON.stringify(result.body);
      if (result.status >= 200 && result.status < 300) {
        insert.run(
          request.orgId,
          request.key,
          request.fingerprint,
          result.status,
          body,
          request.nowMs,
        );
      }
      return { status: result.status, body, isReplay: false };
    })
    .immediate();
}

type RecordRow = { fingerprint: string; status: number; body: string; created_at: number };

type Statements = {
  select: Statement<[string, string], RecordRow>;
  remove: Statement<[string, string]>;
  insert: Statement<[string, string, string, number, string, number]>;
};

/** Statements of every idempotent request, prepared once per connection. */
const statements = new WeakMap<Db, Statements>();

function statementsOf(db: Db): Statements {
  let prepared = statements.get(db);
  if (!prepared) {
    prepared = {
      select: db.prepare<[string, string], RecordRow>(
        'SELECT fingerprint, status, body, created_at FROM idempotency_records WHERE org_id = ? AND idempotency_key = ?',
      ),
      remove: db.prepare<[string, string]>(
        'DELETE FROM idempotency_records WHERE org_id = ? AND idempotency_key = ?',
      ),
      insert: db.prepare<[string, string, string, number, string, number]>(
        'INSERT INTO idempotency_records (org_id, idempotency_key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
    };
    statements.set(db, prepared);
  }
  return prepared;
}

/** Writes an idempotent outcome: same status and body bytes as the first time. */
export function sendIdempotent(res: Response, outcome: IdempotentOutcome): void {
  if (outcome.isReplay) res.setHeader('x-idempotent-replayed', 'true');
  res.status(outcome.status).type('application/json').send(outcome.body);
}

/** Drops records past the 24 h retention. */
export function pruneIdempotencyRecords(db: Db, nowMs: number): number {
  return db
    .prepare('DELETE FROM idempotency_records WHERE created_at <= ?')
    .run(nowMs - IDEMPOTENCY_RETENTION_MS).changes;
}
