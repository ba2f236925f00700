import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { StoredEvent } from '../store/events';
import { createEventFeed, type FeedStore } from './feed';

const logger = pino({ level: 'silent' });

function event(seq: number): StoredEvent {
  return {
    seq,
    id: `evt_${seq}`,
    type: 'account.created',
    occurredAt: '2026-01-01T00:00:00.000Z',
    correlationId: null,
    sequence: null,
    orgId: 'org_1',
    transactionId: null,
    walletId: null,
    accountId: null,
    txHash: null,
    data: {},
    raw: {},
  };
}

/**
 * The store's committed rows in memory; `gate` holds reads until released, so a test decides
 * what commits while a read is in flight.
 */
function memoryStore(initial: number[] = []) {
  const rows = initial.map(event);
  const reads: { after: number; limit: number }[] = [];
  let gate: Promise<void> = Promise.resolve();
  let failures = 0;
  const store: FeedStore = {
    async after(position, limit) {
      reads.push({ after: position, limit });
      await gate;
      if (failures > 0) {
        failures -= 1;
        throw new Error('connection lost');
      }
      return rows.filter((row) => row.seq > position).slice(0, limit);
    },
    lastPosition: async () => Promise.resolve(rows.at(-1)?.seq ?? 0),
  };
  return {
    store,
    reads,
    commit: (...seqs: number[]) => {
      for (const seq of seqs) rows.push(event(seq));
      return seqs.map(event);
    },
    hold() {
      let release = () => {};
      gate = new Promise((resolve) => {
        release = resolve;
      });
      return () => {
        release();
        gate = Promise.resolve();
      };
    },
    failNext: (count: number) => {
      failures = count;
    },
  };
}

function feedOver(memory: ReturnType<typeof memoryStore>, pageSize = 3) {
  const delivered: number[] = [];
  const feed = createEventFeed({
    store: memory.store,
    deliver: (events) => delivered.push(...events.map((e) => e.seq)),
    logger,
    pageSize,
    retryMs: 5,
  });
  return { feed, delivered };
}

describe('event feed', () => {
  it('follows from the newest stored event, not from history', async () => {
    const memory = memoryStore([1, 2, 3]);
    const { feed, delivered } = feedOver(memory);
    await feed.start();
    expect(feed.position).toBe(3);
    memory.commit(4, 5);
    feed.wake(5);
    await feed.idle();
    expect(delivered).toEqual([4, 5]);
  });

  it('delivers each event once whether it arrives as own rows, a NOTIFY or a resync', async () => {
    const memory = memoryStore();
    const { feed, delivered } = feedOver(memory);
    await feed.start();
    const rows = memory.commit(1, 2);
    feed.wake(2);
    feed.committed(rows);
    feed.wake(2);
    feed.wake();
    await feed.idle();
    expect(delivered).toEqual([1, 2]);
  });

  it('reads nothing for a NOTIFY of a position it already delivered (the leader hears itself)', async () => {
    const memory = memoryStore();
    const { feed } = feedOver(memory);
    await feed.start();
    feed.committed(memory.commit(1, 2, 3));
    feed.wake(3);
    await feed.idle();
    expect(memory.reads).toEqual([]);
  });

  it('sends an earlier leader\u2019s undelivered rows before its own, in order', async () => {
    const memory = memoryStore();
    const { feed, delivered } = feedOver(memory, 2);
    await feed.start();
    // The old leader committed 1-5; their NOTIFY has not arrived when this replica takes over.
    memory.commit(1, 2, 3, 4, 5);
    feed.committed(memory.commit(7, 8));
    await feed.idle();
    expect(delivered).toEqual([1, 2, 3, 4, 5, 7, 8]);
  });

  it('pages through a long backlog after a resync', async () => {
    const memory = memoryStore();
    const { feed, delivered } = feedOver(memory, 3);
    await feed.start();
    memory.commit(...Array.from({ length: 10 }, (_, i) => i + 1));
    feed.wake();
    await feed.idle();
    expect(delivered).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('tries again after a failed read, without being told anything new', async () => {
    const memory = memoryStore();
    const { feed, delivered } = feedOver(memory);
    await feed.start();
    memory.commit(1);
    memory.failNext(2);
    feed.wake(1);
    await vi.waitFor(() => {
      expect(delivered).toEqual([1]);
    });
    feed.stop();
  });

  it('registers a replaying socket so that it gets every event once, even what commits during its replay', async () => {
    const memory = memoryStore([1, 2, 3]);
    // The socket's view: its replay, then what the feed hands the hub once it is registered.
    const seen: number[] = [];
    let isRegistered = false;
    const feed = createEventFeed({
      store: memory.store,
      deliver: (events) => {
        if (isRegistered) seen.push(...events.map((e) => e.seq));
      },
      logger,
      pageSize: 10,
    });
    await feed.start();
    const release = memory.hold();
    const replay = feed.replayThen(1, 100, (backlog) => {
      seen.push(...backlog.map((e) => e.seq));
      isRegistered = true;
    });
    // While the replay's read is in flight, 4 and 5 commit and go to the sockets already there.
    feed.committed(memory.commit(4, 5));
    await feed.idle();
    release();
    await replay;
    feed.committed(memory.commit(6));
    await feed.idle();
    expect(seen).toEqual([2, 3, 4, 5, 6]);
  });

  it('stops a replay one past the limit, so the socket can be told to resume', async () => {
    const memory = memoryStore([1, 2, 3, 4, 5, 6]);
    const { feed } = feedOver(memory, 2);
    await feed.start();
    let backlog: number[] = [];
    await feed.replayThen(0, 3, (events) => {
      backlog = events.map((e) => e.seq);
    });
    expect(backlog).toEqual([1, 2, 3, 4]);
  });
});
