import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NormalizedEvent } from '@settlement/protocol';
import { storeEngines } from '../test-support/engines';
import {
  createEventKeyIndexer,
  createEventKeyIndexing,
  eventKeys,
  pruneEventKeys,
  type EventKeyIndexer,
  type KeyRow,
} from './event-keys';
import { createEventStore } from './events';
import type { Sql } from './sql';
import { businessEvent } from '../test-support/stored-event';

function keyRow(overrides: Partial<KeyRow> = {}): KeyRow {
  return {
    seq: 1,
    id: 'e1',
    correlation_id: null,
    transaction_id: null,
    wallet_id: null,
    account_id: null,
    tx_hash: null,
    client_reference: null,
    data: '{}',
    ...overrides,
  };
}

describe('eventKeys', () => {
  it('takes every non-empty string of the key columns and data fields, each once', () => {
    const row = keyRow({
      id: 'id-1',
      correlation_id: 'corr-1',
      transaction_id: 'tx-1',
      wallet_id: 'w-1',
      account_id: 'acc-1',
      tx_hash: 'hash-1',
      client_reference: 'ref-1',
      data: JSON.stringify({
        transactionId: 'tx-1',
        sourceTransactionId: 'src-1',
        destinationTransactionId: 'dst-1',
        requestId: 'req-1',
        idempotencyKey: 'idem-1',
        toAddress: 'to-1',
        fromAddress: 'from-1',
        address: 'tx-1',
      }),
    });
    expect(eventKeys(row).sort()).toEqual(
      [
        'id-1',
        'corr-1',
        'tx-1',
        'w-1',
        'acc-1',
        'hash-1',
        'ref-1',
        'src-1',
        'dst-1',
        'req-1',
        'idem-1',
        'to-1',
        'from-1',
      ].sort(),
    );
  });

  it('leaves out numbers, empty strings, other fields, overlong values and NUL', () => {
    const row = keyRow({
      id: 'only',
      correlation_id: '',
      data: JSON.stringify({
        requestId: 12345,
        idempotencyKey: '',
        toAddress: { nested: 'x' },
        fromAddress: 'x'.repeat(513),
        address: 'a\u0000b',
        amountAtomic: '100',
        status: 'PENDING',
      }),
    });
    expect(eventKeys(row)).toEqual(['only']);
    expect(eventKeys(keyRow({ id: 'k', data: '[1, 2]' }))).toEqual(['k']);
  });
});

/** Every event of these tests shares one wallet, so a key spans the watermark. */
const event = (id: string, data: Record<string, unknown> = {}): NormalizedEvent =>
  businessEvent(id, { walletId: 'w-shared', ...data });

async function watermark(sql: Sql): Promise<unknown> {
  return (await sql.get('SELECT seq FROM event_keys_indexed WHERE id = 1'))?.seq;
}

async function keyRows(sql: Sql): Promise<unknown[]> {
  return sql.all('SELECT key, seq FROM event_keys ORDER BY seq, key');
}

/** The same database, but the indexer reads the watermark as 0 (a reader behind the times). */
function withStaleWatermark(sql: Sql): Sql {
  const stale = (tx: Sql): Sql => ({
    ...tx,
    get: (text, params) =>
      text.includes('FROM event_keys_indexed') ? Promise.resolve({ seq: 0 }) : tx.get(text, params),
    transaction: (fn) => tx.transaction((inner) => fn(stale(inner))),
  });
  return stale(sql);
}

describe.each(storeEngines())('event key indexer ($name)', (engine) => {
  it('indexes at most maxEvents a call, in order, and advances the watermark to the last read', async () => {
    const sql = await engine.open();
    const events = createEventStore(sql);
    const stored = await events.addMany(
      Array.from({ length: 5 }, (_, index) => event(`c${String(index)}`)),
    );
    const seqs = stored.map((e) => e.seq);
    const indexer = createEventKeyIndexer(sql);
    expect(await indexer.pending()).toBe(5);

    expect(await indexer.indexPending(2)).toBe(2);
    expect(await watermark(sql)).toBe(seqs[1]);
    expect(await indexer.pending()).toBe(3);
    expect(await indexer.indexPending(2)).toBe(2);
    expect(await indexer.indexPending(2)).toBe(1);
    expect(await watermark(sql)).toBe(seqs[4]);
    expect(await indexer.indexPending(2)).toBe(0);
    expect(await indexer.pending()).toBe(0);
    // Each event's id and correlation id, and the wallet they share once per event.
    expect(await keyRows(sql)).toHaveLength(15);
  });

  it('inserts nothing twice and never moves the watermark back, whatever watermark it reads', async () => {
    const sql = await engine.open();
    const events = createEventStore(sql);
    await events.addMany(Array.from({ length: 4 }, (_, index) => event(`i${String(index)}`)));
    const indexer = createEventKeyIndexer(sql);
    expect(await indexer.indexPending(10)).toBe(4);
    const top = await watermark(sql);
    const keys = await keyRows(sql);

    expect(await createEventKeyIndexer(withStaleWatermark(sql)).indexPending(2)).toBe(2);
    expect(await watermark(sql)).toBe(top);
    expect(await keyRows(sql)).toEqual(keys);
    expect(await indexer.indexPending(10)).toBe(0);
  });
});

describe.each(storeEngines())('event key prune ($name)', (engine) => {
  it('deletes the keys of every pruned event, a page at a time, and no others', async () => {
    const sql = await engine.open();
    await sql.run(
      `WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
       INSERT INTO events (id, type, occurred_at, org_id, data, raw, received_at)
       SELECT 'p-' || i, 't', '2026-01-01', 'org', '{"toAddress":"T-' || i || '"}', '{}', i FROM n`,
    );
    await createEventKeyIndexer(sql).indexPending(2_500);
    expect(await keyRows(sql)).toHaveLength(5_000);

    expect(await createEventStore(sql).prune(2_101)).toBe(2_100);
    const orphans = await sql.get(
      'SELECT COUNT(*) AS n FROM event_keys WHERE seq NOT IN (SELECT seq FROM events)',
    );
    expect(orphans?.n).toBe(0);
    expect(await keyRows(sql)).toHaveLength(800);
  });
});

describe.each(storeEngines().filter((engine) => engine.name === 'postgres'))(
  'event key indexer shared by replicas ($name)',
  (engine) => {
    it('two indexers at once neither insert a key twice nor miss an event', async () => {
      const sql = await engine.open();
      const events = createEventStore(sql);
      for (let batch = 0; batch < 4; batch += 1) {
        await events.addMany(
          Array.from({ length: 100 }, (_, index) => event(`r${String(batch * 100 + index)}`)),
        );
      }
      const drain = async (indexer: EventKeyIndexer) => {
        while ((await indexer.indexPending(25)) > 0);
      };
      const one = createEventKeyIndexer(sql);
      const two = createEventKeyIndexer(sql);
      await Promise.all([drain(one), drain(two), drain(one), drain(two)]);
      // One that found the lock taken stopped early; whoever held it went on to the end.
      expect(await one.pending()).toBe(0);
      expect(await watermark(sql)).toBe(await events.lastPosition());
      expect(await keyRows(sql)).toHaveLength(400 * 2 + 400);
      const distinct = await sql.get(
        'SELECT COUNT(DISTINCT seq) AS n FROM event_keys WHERE key = ?',
        ['w-shared'],
      );
      expect(distinct?.n).toBe(400);
    });

    it('skips its turn while a prune holds the key table, and leaves the watermark', async () => {
      const sql = await engine.open();
      await createEventStore(sql).add(event('locked'));
      const indexer = createEventKeyIndexer(sql);
      await sql.transaction(async (tx) => {
        await pruneEventKeys(tx, 0);
        expect(await indexer.indexPending(10)).toBe(0);
      });
      expect(await watermark(sql)).toBe(0);
      expect(await indexer.indexPending(10)).toBe(1);
    });
  },
);

/** An indexer over a counter: `backlog` events wait, `tail` is what `pending` reports. */
function fakeIndexer(state: { backlog: number; tail: number; log: string[] }): EventKeyIndexer {
  return {
    indexPending(maxEvents) {
      const read = Math.min(maxEvents, state.backlog);
      state.backlog -= read;
      state.log.push(`chunk ${String(read)}`);
      return Promise.resolve(read);
    },
    pending: () => Promise.resolve(state.tail),
  };
}

/** Lets every promise the schedule chained settle (a real macrotask; only intervals are fake). */
const settle = () =>
  new Promise<void>((resolve) => {
    setImmediate(resolve);
  });

describe('event key indexing schedule', () => {
  let now: number;
  let lastEventAt: number;
  let state: { backlog: number; tail: number; log: string[] };
  const logger = pino({ level: 'silent' });

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    now = 1_000_000;
    lastEventAt = -Infinity;
    state = { backlog: 0, tail: 0, log: [] };
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function schedule(
    indexer: EventKeyIndexer = fakeIndexer(state),
    extra: { settleLogEvery?: number } = {},
  ) {
    return createEventKeyIndexing({
      indexer,
      ...(extra.settleLogEvery
        ? {
            settleLogEvery: extra.settleLogEvery,
            settleLog: () => {
              state.log.push('settle log');
              return Promise.resolve();
            },
          }
        : {}),
      hasReceivedSince: (at) => Promise.resolve(lastEventAt >= at),
      logger,
      now: () => now,
      chunk: 10,
      maxTail: 100,
      busyPerCheck: 8,
      busyChunk: 3,
      yieldToLoop: () => {
        state.log.push('yield');
        return Promise.resolve();
      },
    });
  }

  /** A schedule that has caught up at start, its log cleared: what follows is the checks'. */
  async function caughtUp() {
    const indexing = schedule();
    indexing.start();
    await settle();
    state.log.length = 0;
    return indexing;
  }

  /** One interval of the schedule, the clock moving with it. */
  async function tick() {
    now += 1_000;
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
  }

  /** `times` deliveries to the browsers, each followed by the lull a waiting chunk runs in. */
  async function deliveries(indexing: { relayed(): void }, times: number) {
    for (let i = 0; i < times; i += 1) {
      indexing.relayed();
      await settle();
    }
  }

  it('catches up at start, busy or not, a chunk at a time with a yield between chunks', async () => {
    lastEventAt = now;
    state.backlog = 25;
    const indexing = schedule();
    indexing.start();
    await settle();
    expect(state.log).toEqual(['chunk 10', 'yield', 'chunk 10', 'yield', 'chunk 5']);
    await indexing.stop();
  });

  it("catching up, settles the store's log every so many chunks instead of only yielding", async () => {
    state.backlog = 45;
    const indexing = schedule(fakeIndexer(state), { settleLogEvery: 2 });
    indexing.start();
    await settle();
    expect(state.log).toEqual([
      'chunk 10',
      'yield',
      'chunk 10',
      'settle log',
      'chunk 10',
      'yield',
      'chunk 10',
      'settle log',
      'chunk 5',
    ]);
    await indexing.stop();
  });

  it('indexes up to its budget a check in small chunks while events arrive, the rest once the relay is quiet for a second, and nothing when nothing is left', async () => {
    const indexing = await caughtUp();

    lastEventAt = now + 500;
    state.backlog = 25;
    state.tail = 25;
    await tick();
    await deliveries(indexing, 4);
    expect(state.log).toEqual(['chunk 3', 'chunk 3', 'chunk 2']);
    await tick();
    expect(state.log.slice(3)).toEqual(['chunk 10', 'yield', 'chunk 7']);
    // Nothing left, busy or quiet: no transaction at all.
    state.tail = 0;
    lastEventAt = now + 1_000;
    await tick();
    await tick();
    await tick();
    expect(state.log).toHaveLength(6);
    await indexing.stop();
  });

  it('while events arrive, runs each chunk in the lull after a delivery, or at the latest after the wait bound', async () => {
    const indexing = await caughtUp();

    lastEventAt = now + 500;
    state.backlog = 25;
    state.tail = 25;
    await tick();
    // Checked, but no delivery yet: nothing runs at a moment an event may be arriving.
    expect(state.log).toEqual([]);
    await deliveries(indexing, 1);
    expect(state.log).toEqual(['chunk 3']);
    // A replica that relays nothing (another one leads) still indexes, at the wait bound.
    await vi.advanceTimersByTimeAsync(49);
    expect(state.log).toEqual(['chunk 3']);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.log).toEqual(['chunk 3', 'chunk 3']);
    await deliveries(indexing, 1);
    expect(state.log).toEqual(['chunk 3', 'chunk 3', 'chunk 2']);
    // The budget is spent: deliveries run nothing more until the next check.
    await deliveries(indexing, 3);
    expect(state.log).toHaveLength(3);
    await indexing.stop();
  });

  it('stops at once while a chunk waits for a lull', async () => {
    const indexing = await caughtUp();
    lastEventAt = now + 500;
    state.backlog = 25;
    state.tail = 25;
    await tick();
    await indexing.stop();
    expect(state.log).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    await deliveries(indexing, 2);
    expect(state.log).toEqual([]);
  });

  it('while events arrive, indexes a tail under its budget whole, and stops at the first chunk that comes back short', async () => {
    const indexing = await caughtUp();

    state.backlog = 5;
    state.tail = 5;
    lastEventAt = now + 1_000;
    await tick();
    await deliveries(indexing, 3);
    expect(state.log).toEqual(['chunk 3', 'chunk 2']);
    state.log.length = 0;

    // The tail counted more than was left to read (pruned meanwhile): no empty chunks after.
    state.backlog = 2;
    state.tail = 8;
    lastEventAt = now + 1_000;
    await tick();
    await deliveries(indexing, 3);
    expect(state.log).toEqual(['chunk 2']);
    await indexing.stop();
  });

  it('while events arrive, indexes all of the tail only once it exceeds the bound', async () => {
    const indexing = await caughtUp();

    state.backlog = 100;
    state.tail = 100;
    lastEventAt = now + 1_000;
    await tick();
    await deliveries(indexing, 3);
    expect(state.log.filter((entry) => entry.startsWith('chunk'))).toEqual([
      'chunk 3',
      'chunk 3',
      'chunk 2',
    ]);
    state.log.length = 0;

    state.backlog = 101;
    state.tail = 101;
    lastEventAt = now + 1_000;
    await tick();
    expect(state.log.filter((entry) => entry.startsWith('chunk'))).toHaveLength(11);
    expect(state.backlog).toBe(0);
    await indexing.stop();
  });

  it('leaves off a run begun in a quiet moment as soon as events arrive again', async () => {
    const indexing = schedule({
      ...fakeIndexer(state),
      indexPending(maxEvents) {
        // The relay stores an event while the first chunk commits.
        lastEventAt = now;
        return fakeIndexer(state).indexPending(maxEvents);
      },
    });
    indexing.start();
    await settle();
    state.log.length = 0;
    lastEventAt = -Infinity;
    state.backlog = 50;
    state.tail = 50;

    await tick();
    expect(state.log).toEqual(['chunk 10', 'yield']);
    expect(state.backlog).toBe(40);
    await indexing.stop();
  });

  it('logs a failure and tries again at the next check', async () => {
    let failures = 1;
    const error = vi.spyOn(logger, 'error');
    const indexing = schedule({
      ...fakeIndexer(state),
      indexPending(maxEvents) {
        if (failures > 0) {
          failures -= 1;
          return Promise.reject(new Error('disk full'));
        }
        return fakeIndexer(state).indexPending(maxEvents);
      },
    });
    state.backlog = 5;
    state.tail = 5;
    indexing.start();
    await settle();
    expect(error).toHaveBeenCalledTimes(1);
    expect(state.backlog).toBe(5);

    await tick();
    expect(state.backlog).toBe(0);
    await indexing.stop();
    error.mockRestore();
  });

  it('stops checking once stopped, after the chunk under way', async () => {
    let release = () => {};
    const indexing = schedule({
      ...fakeIndexer(state),
      indexPending: (maxEvents) =>
        new Promise((resolve) => {
          release = () => {
            resolve(fakeIndexer(state).indexPending(maxEvents));
          };
        }),
    });
    state.backlog = 30;
    indexing.start();
    await settle();
    let isStopped = false;
    const stopping = indexing.stop().then(() => {
      isStopped = true;
    });
    await settle();
    expect(isStopped).toBe(false);
    release();
    await stopping;
    expect(state.log).toEqual(['chunk 10', 'yield']);
    expect(vi.getTimerCount()).toBe(0);
    await tick();
    expect(state.log).toEqual(['chunk 10', 'yield']);
  });
});
