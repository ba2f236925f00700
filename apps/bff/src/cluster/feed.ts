import type { Logger } from 'pino';
import type { StoredEvent } from '../store/events';

/** What the feed reads: committed events by local position. */
export type FeedStore = {
  after(position: number, limit: number): Promise<StoredEvent[]>;
  lastPosition(): Promise<number>;
};

export type EventFeedOptions = {
  store: FeedStore;
  /** Hands events to this replica's browsers; called in position order, each event once. */
  deliver: (events: readonly StoredEvent[]) => void;
  logger: Logger;
  pageSize?: number;
  /** After a failed read, the feed tries again this much later (it may be told nothing new). */
  retryMs?: number;
};

/**
 * One replica's ordered view of the event store. Its position is the last event handed to
 * this replica's browsers; it only moves forward, so an event reached twice (the leader's own
 * rows and the NOTIFY about them, a redelivery, a resync) goes out once, and in order. Every
 * step runs in one queue, so two reads never deliver out of order.
 *
 * Positions commit in order (event writers serialize, see the event store), so reading
 * `after(position)` never skips a row that commits late.
 */
export function createEventFeed(options: EventFeedOptions) {
  const { store, deliver, logger } = options;
  const pageSize = options.pageSize ?? 500;
  const retryMs = options.retryMs ?? 1_000;
  let position = 0;
  let queue: Promise<void> = Promise.resolve();
  let retryTimer: NodeJS.Timeout | null = null;
  let isStopped = false;
  /** Set by start: a replay waits for the position to be known. */
  let started: Promise<void> = Promise.resolve();
  /** Until the newest stored position is read, "after the position" would mean all history. */
  let isPositioned = false;
  const position0 = async () => {
    if (isPositioned) return;
    position = Math.max(position, await store.lastPosition());
    isPositioned = true;
  };

  const handOver = (events: readonly StoredEvent[]) => {
    const fresh = events.filter((event) => event.seq > position);
    if (fresh.length === 0) return;
    // Advanced in the same synchronous step as the delivery: everything up to `position` has
    // reached the hub, which is what a replaying socket relies on (replayThen).
    position = fresh.at(-1)?.seq ?? position;
    deliver(fresh);
  };

  /** Reads and delivers everything committed after the position (below `before` when given). */
  const catchUp = async (before = Infinity) => {
    await position0();
    for (;;) {
      const page = await store.after(position, pageSize);
      const due = page.filter((event) => event.seq < before);
      handOver(due);
      if (page.length < pageSize || due.length < page.length) return;
    }
  };

  const enqueue = (step: () => Promise<void>) => {
    queue = queue.then(step).catch((error: unknown) => {
      logger.error({ err: error }, 'event feed read failed; trying again');
      if (isStopped || retryTimer) return;
      retryTimer = setTimeout(() => {
        retryTimer = null;
        enqueue(() => catchUp());
      }, retryMs);
      retryTimer.unref();
    });
  };

  return {
    /** Where this replica starts following: the newest stored event (history is for replays). */
    start(): Promise<void> {
      enqueue(position0);
      started = queue;
      return started;
    },
    stop(): void {
      isStopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
    },
    get position(): number {
      return position;
    },
    /**
     * Rows this process has just committed, in order. Any rows committed before them that this
     * replica has not delivered yet (an earlier leader's last ones) are read and go out first.
     */
    committed(events: readonly StoredEvent[]): void {
      const first = events[0];
      if (!first) return;
      enqueue(async () => {
        if (first.seq > position + 1) await catchUp(first.seq);
        handOver(events);
      });
    },
    /**
     * Something was committed elsewhere, up to `upTo` when known. A position already delivered
     * costs no read (the leader hears its own NOTIFY).
     */
    wake(upTo?: number): void {
      enqueue(async () => {
        if (upTo !== undefined && upTo <= position) return;
        await catchUp();
      });
    },
    /**
     * A browser resuming after local position `from`: its backlog up to the feed's position
     * (at most `max` + 1 events, the extra one telling that more exist), then `register` in the
     * same synchronous step as the last check, so no event is missed or sent twice between the
     * replay and the live stream.
     */
    async replayThen(
      from: number,
      max: number,
      register: (backlog: StoredEvent[]) => void,
    ): Promise<void> {
      await started;
      const backlog: StoredEvent[] = [];
      let last = from;
      for (;;) {
        const target = position;
        if (last >= target || backlog.length > max) {
          register(backlog);
          return;
        }
        const page = await store.after(last, Math.min(pageSize, max + 1 - backlog.length));
        const due = page.filter((event) => event.seq <= target);
        backlog.push(...due);
        const newest = due.at(-1);
        // Nothing between `last` and the target any more (pruned meanwhile): nothing to send.
        if (!newest) last = target;
        else last = newest.seq;
      }
    },
    /** Resolves once every step asked for so far has run (tests, shutdown). */
    idle(): Promise<void> {
      return queue;
    },
  };
}

export type EventFeed = ReturnType<typeof createEventFeed>;
