import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from './db';
import { createOperatorStore } from './operators';
import { READ_SESSION_REUSE_MS, createSessionStore } from './sessions';
import type { Sql } from './sql';
import { sqliteSql } from './sqlite-sql';

/** A fresh store over an in-memory database that counts the session rows it reads. */
async function setUp(idleMs = 60_000) {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db);
  const sql = sqliteSql(db);
  let reads = 0;
  /** While set, a session SELECT answers what it read only once this settles. */
  const gate: { held: Promise<void> | null } = { held: null };
  const counted: Sql = {
    ...sql,
    get: async (text, params) => {
      if (!text.includes('FROM sessions s JOIN operators')) return sql.get(text, params);
      reads += 1;
      const row = await sql.get(text, params);
      if (gate.held) await gate.held;
      return row;
    },
  };
  const clock = { at: 1_000_000 };
  const operators = createOperatorStore(sql, () => clock.at);
  const sessions = createSessionStore(counted, { idleMs, absoluteMs: 3_600_000 }, () => clock.at);
  const operator = await operators.add('tess', 'treasury', 'hash');
  return { db, sessions, operator, clock, gate, reads: () => reads };
}

describe('resolveForRead', () => {
  it('reads a session row once a second for reads, and sees a change made elsewhere after it', async () => {
    const { db, sessions, operator, clock, reads } = await setUp();
    const { sessionId } = await sessions.create(operator.id);
    expect(await sessions.resolveForRead(sessionId)).toMatchObject({ role: 'treasury' });
    // Another replica (or the operators CLI) changes the role: the kept row serves the second.
    db.prepare("UPDATE operators SET role = 'support' WHERE id = ?").run(operator.id);
    clock.at += READ_SESSION_REUSE_MS - 1;
    expect(await sessions.resolveForRead(sessionId)).toMatchObject({ role: 'treasury' });
    expect(reads()).toBe(1);
    // Writes never go on it.
    expect(await sessions.resolve(sessionId)).toMatchObject({ role: 'support' });
    clock.at += 1;
    expect(await sessions.resolveForRead(sessionId)).toMatchObject({ role: 'support' });
    expect(reads()).toBe(3);
    // The row read after the window is kept again, with the touch it wrote.
    clock.at += 10;
    expect(await sessions.resolveForRead(sessionId)).toMatchObject({
      lastSeenAt: clock.at - 10,
    });
    expect(reads()).toBe(3);
  });

  it('sees at once what this process changes: sign-out, ends, stage, step-up, operators', async () => {
    const { sessions, operator, clock, reads } = await setUp();
    const kept = async () => {
      const { sessionId, idHash } = await sessions.create(operator.id);
      expect(await sessions.resolveForRead(sessionId)).not.toBeNull();
      return { sessionId, idHash };
    };
    const signedOut = await kept();
    await sessions.remove(signedOut.sessionId);
    expect(await sessions.resolveForRead(signedOut.sessionId)).toBeNull();

    const ended = await kept();
    await sessions.removeHash(ended.idHash);
    expect(await sessions.resolveForRead(ended.sessionId)).toBeNull();

    const staying = await kept();
    const other = await kept();
    await sessions.removeOthers(operator.id, staying.idHash);
    expect(await sessions.resolveForRead(other.sessionId)).toBeNull();
    const before = reads();
    expect(await sessions.resolveForRead(staying.sessionId)).not.toBeNull();
    expect(reads()).toBe(before);

    await sessions.setStage(staying.idHash, 'passkey');
    expect(await sessions.resolveForRead(staying.sessionId)).toBeNull();
    await sessions.setStage(staying.idHash, 'complete');

    expect(await sessions.resolveForRead(staying.sessionId)).toMatchObject({ stepUpAt: null });
    const at = await sessions.recordStepUp(staying.idHash);
    expect(await sessions.resolveForRead(staying.sessionId)).toMatchObject({ stepUpAt: at });

    const counted = reads();
    sessions.forgetReused();
    await sessions.resolveForRead(staying.sessionId);
    expect(reads()).toBe(counted + 1);
    expect(clock.at).toBe(1_000_000);
  });

  it('keeps no row a read took before a change it finished after', async () => {
    const { sessions, operator, gate } = await setUp();
    const { sessionId } = await sessions.create(operator.id);
    let release: () => void = () => undefined;
    gate.held = new Promise((resolve) => {
      release = resolve;
    });
    // The SELECT has read the row; the sign-out lands before the read is answered.
    const inFlight = sessions.resolveForRead(sessionId);
    await new Promise((resolve) => setImmediate(resolve));
    gate.held = null;
    await sessions.remove(sessionId);
    release();
    expect(await inFlight).not.toBeNull();
    expect(await sessions.resolveForRead(sessionId)).toBeNull();
  });

  it('keeps no row for an unknown id, a sign-in under way or an expired session', async () => {
    const { sessions, operator, clock, reads } = await setUp();
    expect(await sessions.resolveForRead('forged')).toBeNull();
    expect(await sessions.resolveForRead('forged')).toBeNull();
    expect(reads()).toBe(2);

    const signingIn = await sessions.create(operator.id, { stage: 'passkey' });
    expect(await sessions.resolveForRead(signingIn.sessionId)).toBeNull();
    expect(await sessions.resolveForRead(signingIn.sessionId)).toBeNull();
    expect(reads()).toBe(4);

    // Idle for longer than the limit: the kept row is not trusted past it.
    const { sessionId } = await sessions.create(operator.id);
    expect(await sessions.resolveForRead(sessionId)).not.toBeNull();
    clock.at += 60_001;
    expect(await sessions.resolveForRead(sessionId)).toBeNull();
  });

  it('works out needsStepUp at each use, not when the row was read', async () => {
    const { db, sessions, operator, clock, reads } = await setUp(10 * 60_000);
    db.prepare(
      `INSERT INTO passkeys (id, operator_id, credential_id, public_key, counter, transports,
         name, is_backed_up, created_at) VALUES ('p1', ?, 'c1', x'00', 0, '[]', 'key', 0, 0)`,
    ).run(operator.id);
    const { sessionId, idHash } = await sessions.create(operator.id);
    await sessions.recordStepUp(idHash);
    clock.at += 5 * 60_000 - 100;
    expect(await sessions.resolveForRead(sessionId)).toMatchObject({ needsStepUp: false });
    // The five minutes end while the row is kept: the flag says so at once.
    clock.at += 200;
    expect(await sessions.resolveForRead(sessionId)).toMatchObject({ needsStepUp: true });
    expect(reads()).toBe(1);
  });
});
