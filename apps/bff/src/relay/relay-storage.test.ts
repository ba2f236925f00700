import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import type { NormalizedEvent } from '@settlement/protocol';
import { soloBus } from '../cluster/bus';
import { createEventFeed } from '../cluster/feed';
import { openDb } from '../store/db';
import { createEventStore, type EventStore } from '../store/events';
import type { Sql } from '../store/sql';
import { HttpError } from '../errors';
import { createHub } from './hub';
import { createRelay, type Relay } from './relay';
import { tempDir } from '../test-support/temp-dirs';

const ORG = 'org-relay-storage';

/** An upstream frame of one event (MVP envelope: the stream resumes after an event id). */
function frame(id: string): string {
  return JSON.stringify({
    type: 'EVENT',
    event: 'account.created',
    eventId: id,
    version: 1,
    orgId: ORG,
    occurredAt: '2026-01-01T00:00:00.000Z',
    correlationId: 'c',
    data: {
      accountId: `acc-${id}`,
      orgId: ORG,
      name: id,
      externalId: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      requestId: 'r',
      idempotencyKey: null,
    },
  });
}

/**
 * A fake settlement service holding an ordered event log: a connection gets every event after
 * its `?resumeAfter=` id, then new ones live, as the real one does.
 */
function fakeUpstream() {
  const log: string[] = [];
  const resumes: (string | null)[] = [];
  const live = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true });
  const server: Server = createServer();
  server.on('upgrade', (req, socket, head) => {
    const after = new URL(req.url ?? '/', 'http://x').searchParams.get('resumeAfter');
    resumes.push(after);
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.send(JSON.stringify({ type: 'SYSTEM_CONNECTED' }));
      const from = after === null ? log.length : log.indexOf(after) + 1;
      for (const id of log.slice(from)) ws.send(frame(id));
      live.add(ws);
      ws.on('close', () => live.delete(ws));
    });
  });
  return {
    resumes,
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/v1/ws`;
    },
    /** Appends events to the log and sends them to every open connection, as one burst. */
    emit(...ids: string[]): void {
      log.push(...ids);
      for (const ws of live) for (const id of ids) ws.send(frame(id));
    },
    async close(): Promise<void> {
      for (const ws of wss.clients) ws.terminate();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A SQLite error as better-sqlite3 throws it when the disk is full. */
function diskFull(): Error {
  return Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
}

type Upstream = ReturnType<typeof fakeUpstream>;
let upstream: Upstream;
let db: Sql;
let relay: Relay | null = null;

beforeEach(() => {
  upstream = fakeUpstream();
  db = openDb(join(tempDir('bff-relay-storage-'), 'bff.db'));
});

afterEach(async () => {
  await relay?.stop();
  relay = null;
  await upstream.close();
  await db.close();
});

/** A relay over the real event store, with `failing` deciding which store calls fail. */
async function startRelay(
  failing: (event: NormalizedEvent, call: 'add' | 'addMany') => Error | null,
  /** Awaited before each batch is stored: a slow database. */
  beforeBatch: () => Promise<void> = () => Promise.resolve(),
) {
  const real = createEventStore(db);
  const batchSizes: number[] = [];
  /** Every event id handed to the store, in order (a redelivery shows up twice). */
  const written: string[] = [];
  let positionReads = 0;
  const store: EventStore = {
    ...real,
    resumePosition() {
      positionReads += 1;
      return real.resumePosition();
    },
    async add(event) {
      const error = failing(event, 'add');
      if (error) throw error;
      return real.add(event);
    },
    async addMany(batch) {
      batchSizes.push(batch.length);
      written.push(...batch.map((event) => event.id));
      await beforeBatch();
      for (const event of batch) {
        const error = failing(event, 'addMany');
        if (error) throw error;
      }
      return real.addMany(batch);
    },
  };
  const delivered: string[] = [];
  const logger = pino({ level: 'silent' });
  const feed = createEventFeed({
    store,
    deliver: (events) => delivered.push(...events.map((event) => event.id)),
    logger,
  });
  await feed.start();
  const hub = createHub({
    maxBufferedBytes: 1024 * 1024,
    pingIntervalMs: 30_000,
    isSessionAlive: () => Promise.resolve(true),
  });
  relay = createRelay({
    wsUrl: await upstream.listen(),
    orgId: ORG,
    key: {
      name: 'ws',
      keyId: 'key-ws',
      seed: new Uint8Array(32).fill(7),
      scopes: ['websockets:read'],
    },
    store,
    hub,
    feed,
    bus: soloBus(),
    logger,
    backoff: { baseMs: 10, capMs: 20 },
  });
  await relay.start();
  await expect.poll(() => upstream.resumes.length).toBe(1);
  await expect.poll(() => relay?.state).toBe('connected');
  return { delivered, real, batchSizes, written, positionReads: () => positionReads };
}

const storedIds = async () =>
  (await db.all('SELECT id FROM events ORDER BY seq')).map((row) => String(row.id));

describe('relay while the event store fails', () => {
  it('stops at an event the full disk refused and resumes the upstream after the last stored one, losing nothing', async () => {
    let isFull = true;
    // The disk is full for e2 only (a larger row than its neighbours): e1 and e3 would fit.
    const { delivered } = await startRelay((event) =>
      isFull && event.id === 'e2' ? diskFull() : null,
    );
    upstream.emit('e0');
    await expect.poll(storedIds).toEqual(['e0']);
    upstream.emit('e1', 'e2', 'e3');
    upstream.emit('e4');
    // The relay dropped the connection and resumes after the last event it stored.
    await expect.poll(() => upstream.resumes.length).toBeGreaterThan(1);
    expect(['e0', 'e1']).toContain(upstream.resumes[1]);
    isFull = false;
    await expect.poll(storedIds).toEqual(['e0', 'e1', 'e2', 'e3', 'e4']);
    await expect.poll(() => delivered).toEqual(['e0', 'e1', 'e2', 'e3', 'e4']);
  });

  it('keeps an event the database refuses as data aside and stores the rest of the batch', async () => {
    const refused = new HttpError('VALIDATION_ERROR', 'A value is not valid for storage.');
    const { delivered, real } = await startRelay((event) => (event.id === 'bad' ? refused : null));
    upstream.emit('a1', 'bad', 'a2');
    await expect.poll(() => delivered).toEqual(['a1', 'a2']);
    expect(await real.rejectedCount()).toBe(1);
    // A data error is not a storage fault: the connection stays up.
    expect(upstream.resumes).toHaveLength(1);
  });

  it('stores what arrived during a slow write together in the next transaction (group commit)', async () => {
    let release: () => void = () => undefined;
    let isSlow = true;
    const { delivered, batchSizes } = await startRelay(
      () => null,
      () =>
        isSlow
          ? new Promise<void>((resolve) => {
              release = resolve;
            })
          : Promise.resolve(),
    );
    upstream.emit('g0');
    await expect.poll(() => batchSizes.length).toBe(1);
    // Forty bursts, one event each, while the first write is held.
    const later = Array.from({ length: 40 }, (_, i) => `g${i + 1}`);
    for (const id of later) {
      upstream.emit(id);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await expect.poll(() => relay?.state).toBe('connected');
    isSlow = false;
    release();
    await expect.poll(() => delivered).toEqual(['g0', ...later]);
    // One write for the first event, then the forty that waited in (at most) a few more:
    // never one transaction per event behind a slow database.
    expect(batchSizes[0]).toBe(1);
    expect(batchSizes.length).toBeLessThanOrEqual(3);
    expect(await storedIds()).toEqual(['g0', ...later]);
  });
});

describe('relay position and redeliveries', () => {
  it('resumes after the newest stored event, derived once per batch rather than read back', async () => {
    const { delivered, positionReads } = await startRelay(() => null);
    upstream.emit('p1', 'p2');
    upstream.emit('p3');
    await expect.poll(() => delivered).toEqual(['p1', 'p2', 'p3']);
    relay?.dropUpstream();
    await expect.poll(() => upstream.resumes.length).toBe(2);
    expect(upstream.resumes[1]).toBe('p3');
    // Read once, at start: a store round trip per batch sat on the relay's path to the
    // browsers (and, on PostgreSQL, a round trip before the next batch could begin).
    expect(positionReads()).toBe(1);
  });

  it('drops a redelivery of an event it stored without a store round trip, and relays it once', async () => {
    const { delivered, written } = await startRelay(() => null);
    upstream.emit('r1');
    await expect.poll(() => delivered).toEqual(['r1']);
    // The upstream sends r1 again (a redelivery), then a new event.
    upstream.emit('r1', 'r2');
    await expect.poll(() => delivered).toEqual(['r1', 'r2']);
    expect(written).toEqual(['r1', 'r2']);
    expect(await storedIds()).toEqual(['r1', 'r2']);
  });
});
