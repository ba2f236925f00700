import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../errors';
import { appendEvent, orgEvents } from '../events/outbox';
import { migrate, openDb, type Db } from '../store/db';
import { IDEMPOTENCY_RETENTION_MS, pruneIdempotencyRecords, runIdempotent } from './idempotency';

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-idem-'));
  db = openDb(join(dir, 'sandbox.db'));
  migrate(db);
  db.prepare(
    "INSERT INTO orgs (id, name, created_at) VALUES ('org', 'Org', '2030-01-01T00:00:00.000Z')",
  ).run();
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const request = (key: string, fingerprint: string, nowMs = 1_000_000) => ({
  orgId: 'org',
  key,
  fingerprint,
  conflictCode: 'IDEMPOTENCY_CONFLICT' as const,
  nowMs,
});

function emit(): void {
  appendEvent(db, {
    orgId: 'org',
    type: 'account.created',
    correlationId: 'c',
    occurredAt: '2030-01-01T00:00:00.000Z',
    data: { n: 1 },
  });
}

describe('runIdempotent', () => {
  it('runs once, then replays the stored status and exact body', () => {
    let runs = 0;
    const op = () => {
      runs += 1;
      emit();
      return { status: 201, body: { id: 'a', runs } };
    };
    const first = runIdempotent(db, request('k', 'f'), op);
    const second = runIdempotent(db, request('k', 'f'), op);
    expect(first).toEqual({ status: 201, body: '{"id":"a","runs":1}', isReplay: false });
    expect(second).toEqual({ status: 201, body: first.body, isReplay: true });
    expect(runs).toBe(1);
    expect(orgEvents(db, 'org')).toHaveLength(1);
  });

  it('answers another fingerprint with the given conflict code', () => {
    runIdempotent(db, request('k', 'f'), () => ({ status: 201, body: {} }));
    expect(() => runIdempotent(db, request('k', 'g'), () => ({ status: 201, body: {} }))).toThrow(
      HttpError,
    );
    let caught: unknown;
    try {
      runIdempotent(
        db,
        { ...request('k', 'g'), conflictCode: 'mpc.errors.IDEMPOTENCY_CONFLICT' },
        () => ({ status: 202, body: {} }),
      );
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(HttpError);
    expect((caught as HttpError).code).toBe('mpc.errors.IDEMPOTENCY_CONFLICT');
    expect((caught as HttpError).status).toBe(400);
  });

  it('rolls back the operation’s writes and events with it when it throws, recording nothing', () => {
    expect(() =>
      runIdempotent(db, request('k', 'f'), () => {
        emit();
        throw new HttpError('UNSUPPORTED_CHAIN');
      }),
    ).toThrow(HttpError);
    expect(orgEvents(db, 'org')).toHaveLength(0);
    const retry = runIdempotent(db, request('k', 'f'), () => ({ status: 201, body: { ok: true } }));
    expect(retry.isReplay).toBe(false);
  });

  it('forgets records after 24 h', () => {
    runIdempotent(db, request('k', 'f', 0), () => ({ status: 201, body: { v: 1 } }));
    const later = runIdempotent(db, request('k', 'g', IDEMPOTENCY_RETENTION_MS + 1), () => ({
      status: 201,
      body: { v: 2 },
    }));
    expect(later).toMatchObject({ isReplay: false, body: '{"v":2}' });
    expect(pruneIdempotencyRecords(db, 3 * IDEMPOTENCY_RETENTION_MS)).toBe(1);
  });
});
