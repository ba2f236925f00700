import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postgresSql } from '../store/postgres-sql';
import type { Sql } from '../store/sql';
import { usePostgres, type TestPostgres } from '../test-support/postgres';
import { CHANNELS, pgBus, type BusHandlers, type ClusterBus } from './bus';

/** Generous: these waits ride on a real PostgreSQL, on a machine that may be busy. */
const EVENTUALLY = { timeout: 15_000, interval: 20 };

const logger = pino({ level: 'silent' });
let postgres: TestPostgres;
const pools: pg.Pool[] = [];

beforeAll(async () => {
  postgres = await usePostgres();
});
afterAll(async () => {
  await Promise.all([...pools.map((pool) => pool.end()), ...sqls.map((sql) => sql.close())]);
  await postgres.release();
});

type Heard = { bus: ClusterBus; messages: string[]; pool: pg.Pool };

const sqls: Sql[] = [];

async function replica(url: string): Promise<Heard> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(pool);
  const messages: string[] = [];
  const handlers: BusHandlers = {
    onEvents: (position) => messages.push(`events:${position}`),
    onSessionEnded: (hash) => messages.push(`session:${hash}`),
    onUpstreamState: (state) => messages.push(`upstream:${state}`),
    onResync: () => messages.push('resync'),
    onChange: (frame) => messages.push(`change:${frame}`),
  };
  const publisher = postgresSql(url, { max: 1 });
  sqls.push(publisher);
  const bus = pgBus({ connectionString: url, publisher, logger, retryMs: 20 });
  await bus.start(handlers);
  return { bus, messages, pool };
}

const HASH = 'ab'.repeat(32);
/** A sender id no bus in this file has (theirs are random). */
const OTHER = '0123456789abcdef';

describe('cluster bus on PostgreSQL LISTEN/NOTIFY', { timeout: 30_000 }, () => {
  it('tells every other replica, in the order sent, and not the sender', async () => {
    const url = await postgres.createDatabase();
    const [a, b, c] = [await replica(url), await replica(url), await replica(url)];
    const change = JSON.stringify({
      kind: 'change',
      topic: 'withdrawal-requests',
      invalidates: ['/bff/withdrawal-requests'],
    });
    await a.bus.publishEvents(7);
    await a.bus.publishSessionEnded(HASH);
    await a.bus.publishUpstreamState('connected');
    await a.bus.publishChange(change);
    await b.bus.publishEvents(9);
    const fromA = ['events:7', `session:${HASH}`, 'upstream:connected', `change:${change}`];
    await vi.waitFor(() => {
      expect(c.messages).toEqual([...fromA, 'events:9']);
      expect(b.messages).toEqual(fromA);
      expect(a.messages).toEqual(['events:9']);
    }, EVENTUALLY);
    await Promise.all([a.bus.stop(), b.bus.stop(), c.bus.stop()]);
  });

  it('refuses to publish past the NOTIFY payload limit', async () => {
    const url = await postgres.createDatabase();
    const a = await replica(url);
    const huge = JSON.stringify({ kind: 'change', topic: 'x', invalidates: ['/'.repeat(8000)] });
    await expect(a.bus.publishChange(huge)).rejects.toThrow(/payload limit/);
    await a.bus.stop();
  });

  it('delivers nothing of a transaction that rolled back, and the rest only after commit', async () => {
    const url = await postgres.createDatabase();
    const a = await replica(url);
    const client = await a.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_notify($1, $2)', [CHANNELS.events, `${OTHER} 3`]);
      await client.query('ROLLBACK');
      await client.query('BEGIN');
      await client.query('SELECT pg_notify($1, $2)', [CHANNELS.events, `${OTHER} 4`]);
      expect(a.messages).toEqual([]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await vi.waitFor(() => {
      expect(a.messages).toEqual(['events:4']);
    }, EVENTUALLY);
    await a.bus.stop();
  });

  it('ignores malformed payloads on its channels', async () => {
    const url = await postgres.createDatabase();
    const a = await replica(url);
    for (const [channel, payload] of [
      [CHANNELS.events, '1'],
      [CHANNELS.events, `${OTHER} DROP TABLE events`],
      [CHANNELS.events, `${OTHER} 0`],
      [CHANNELS.sessions, `${OTHER} not-a-hash`],
      [CHANNELS.upstream, `${OTHER} exploded`],
      [CHANNELS.changes, `${OTHER} {"kind":"event"}`],
      [CHANNELS.changes, `${OTHER} {`],
    ] as const) {
      await a.pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    }
    await a.pool.query('SELECT pg_notify($1, $2)', [CHANNELS.events, `${OTHER} 1`]);
    await vi.waitFor(() => {
      expect(a.messages).toEqual(['events:1']);
    }, EVENTUALLY);
    await a.bus.stop();
  });

  it('listens again after its connection is cut and asks for a resync of what it missed', async () => {
    const url = await postgres.createDatabase();
    const a = await replica(url);
    const b = await replica(url);
    // The oldest listener of this database is a's (started first).
    await b.pool.query(
      `SELECT pg_terminate_backend((SELECT pid FROM pg_stat_activity
         WHERE application_name = 'bff-listener' AND datname = current_database()
         ORDER BY backend_start LIMIT 1))`,
    );
    await vi.waitFor(() => {
      expect(a.messages).toContain('resync');
    }, EVENTUALLY);
    await b.bus.publishEvents(12);
    await vi.waitFor(() => {
      expect(a.messages.at(-1)).toBe('events:12');
    }, EVENTUALLY);
    expect(b.messages).toEqual([]);
    await Promise.all([a.bus.stop(), b.bus.stop()]);
  });

  it('hears nothing after stop', async () => {
    const url = await postgres.createDatabase();
    const [a, b, c] = [await replica(url), await replica(url), await replica(url)];
    await a.bus.stop();
    await b.bus.publishEvents(5);
    await vi.waitFor(() => {
      expect(c.messages).toEqual(['events:5']);
    }, EVENTUALLY);
    expect(a.messages).toEqual([]);
    await Promise.all([b.bus.stop(), c.bus.stop()]);
  });
});
