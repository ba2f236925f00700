import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { usePostgres, type TestPostgres } from '../test-support/postgres';
import { pgLeadership, soleLeader, type Leadership } from './leader';

/** Generous: these waits ride on a real PostgreSQL, on a machine that may be busy. */
const EVENTUALLY = { timeout: 15_000, interval: 20 };

const logger = pino({ level: 'silent' });
let postgres: TestPostgres;

beforeAll(async () => {
  postgres = await usePostgres();
});
afterAll(async () => {
  await postgres.release();
});

type Candidate = { leadership: Leadership; changes: string[]; attempts(): number };

function candidate(connectionString: string, retryMs = 25): Candidate {
  const changes: string[] = [];
  let attempts = 0;
  // Counting the scheduled attempts lets a test wait for "several retries later" without a sleep.
  const timers = {
    setTimeout: (callback: () => void, ms: number) => {
      attempts += 1;
      return setTimeout(callback, ms);
    },
    clearTimeout,
  };
  const leadership = pgLeadership({ connectionString, logger, retryMs, timers });
  leadership.start({
    onElected: () => changes.push('elected'),
    onDeposed: () => changes.push('deposed'),
  });
  return { leadership, changes, attempts: () => attempts };
}

async function admin<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('leader election on PostgreSQL', { timeout: 30_000 }, () => {
  it('elects exactly one of several candidates and keeps it while it lives', async () => {
    const url = await postgres.createDatabase();
    const candidates = [candidate(url), candidate(url), candidate(url)];
    await vi.waitFor(() => {
      expect(candidates.filter((c) => c.leadership.isLeader)).toHaveLength(1);
    }, EVENTUALLY);
    // Many retry periods later the same one leads and nobody else was ever elected.
    const leader = candidates.find((c) => c.leadership.isLeader);
    const before = candidates.map((c) => c.attempts());
    await vi.waitFor(() => {
      candidates.forEach((c, i) => {
        expect(c.attempts()).toBeGreaterThan((before[i] ?? 0) + 5);
      });
    }, EVENTUALLY);
    expect(leader?.leadership.isLeader).toBe(true);
    expect(candidates.flatMap((c) => c.changes)).toEqual(['elected']);
    await Promise.all(candidates.map((c) => c.leadership.stop()));
  });

  it('steps the leader down when its connection dies, and exactly one candidate leads again', async () => {
    const url = await postgres.createDatabase();
    const first = candidate(url);
    await vi.waitFor(() => {
      expect(first.leadership.isLeader).toBe(true);
    }, EVENTUALLY);
    const second = candidate(url);
    await vi.waitFor(() => {
      expect(second.attempts()).toBeGreaterThan(3);
    }, EVENTUALLY);
    expect(second.leadership.isLeader).toBe(false);

    // The server ends the leader's session as a crash or a network cut would.
    await admin(
      url,
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'bff-leader' AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted)",
    );
    // The old leader's process lives on and reconnects, so it may win the lock again as well
    // as the follower (a dead one cannot: replicas.test.ts kills one with SIGKILL). Either way
    // it stepped down at the cut, and one candidate, never two, leads after it.
    await vi.waitFor(() => {
      expect(first.changes.slice(0, 2)).toEqual(['elected', 'deposed']);
      expect([first, second].filter((c) => c.leadership.isLeader)).toHaveLength(1);
    }, EVENTUALLY);
    await Promise.all([first.leadership.stop(), second.leadership.stop()]);
  });

  it('hands over at once on stop and reports the step-down', async () => {
    const url = await postgres.createDatabase();
    const first = candidate(url);
    await vi.waitFor(() => {
      expect(first.leadership.isLeader).toBe(true);
    }, EVENTUALLY);
    const second = candidate(url);
    await first.leadership.stop();
    expect(first.changes).toEqual(['elected', 'deposed']);
    await vi.waitFor(() => {
      expect(second.leadership.isLeader).toBe(true);
    }, EVENTUALLY);
    await second.leadership.stop();
  });

  it('keeps trying while the database refuses connections, then leads', async () => {
    const url = await postgres.createDatabase();
    const name = new URL(url).pathname.slice(1);
    const maintenance = url.replace(/\/[^/]+$/, '/postgres');
    await admin(maintenance, `ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    const waiting = candidate(url);
    await vi.waitFor(() => {
      expect(waiting.attempts()).toBeGreaterThan(3);
    }, EVENTUALLY);
    expect(waiting.leadership.isLeader).toBe(false);
    await admin(maintenance, `ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    await vi.waitFor(() => {
      expect(waiting.leadership.isLeader).toBe(true);
    }, EVENTUALLY);
    await waiting.leadership.stop();
  });
});

describe('sole leader', () => {
  it('leads at once and steps down on stop (one process on SQLite)', async () => {
    const changes: string[] = [];
    const leadership = soleLeader();
    leadership.start({
      onElected: () => changes.push('elected'),
      onDeposed: () => changes.push('deposed'),
    });
    expect(leadership.isLeader).toBe(true);
    await leadership.stop();
    expect(leadership.isLeader).toBe(false);
    expect(changes).toEqual(['elected', 'deposed']);
  });
});
