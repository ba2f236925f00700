import { connectEventStream, type EventStream } from '@settlement/client';
import type { NormalizedEvent, SocketState } from '@settlement/protocol';
import type { Logger } from 'pino';
import type { ApiKey } from '../config';
import type { EventStore, StoredEvent } from '../store/events';
import type { ClusterBus } from '../cluster/bus';
import type { EventFeed } from '../cluster/feed';
import { HttpError } from '../errors';
import { createSodiumSigner } from '../upstream/signer';
import { upstreamFrame, type Hub, type UpstreamState } from './hub';

export type RelayOptions = {
  wsUrl: string;
  orgId: string;
  key: ApiKey | null;
  store: EventStore;
  hub: Hub;
  /** Hands what this replica stored to its browsers (in order, once). */
  feed: EventFeed;
  /** Tells the other replicas what was stored and the upstream state. */
  bus: ClusterBus;
  logger: Logger;
  backoff?: { baseMs: number; capMs: number };
  pingIntervalMs?: number;
};

/** Failed reconnects after which the console shows "offline" rather than "reconnecting". */
const OFFLINE_AFTER_FAILURES = 3;
/** The leader repeats its upstream state this often, so a replica started later learns it. */
const STATE_REPEAT_MS = 5_000;
/**
 * Ids of events this relay stored lately, remembered to drop their redeliveries (a reconnect
 * resends what was in flight) without a round trip to the store. Bounded (DESIGN: every dedupe
 * set); an older redelivery is still dropped by the store's insert-if-absent.
 */
const RECENT_IDS = 10_000;

/**
 * The one upstream listener: every event normalized and checked (packages/client), stored
 * once (the resume position advances with each committed batch, never before it), and relayed
 * to the browsers only after that commit (docs/decisions/025). The events of one tick are
 * stored in one transaction and leave in one write per browser socket. Rejected frames are kept aside with their reason and
 * counted, never relayed.
 */
export function createRelay(options: RelayOptions) {
  const { store, hub, feed, bus, logger } = options;
  /** This replica holds the upstream stream (between start and stop). */
  let isLeading = false;
  let stateTimer: NodeJS.Timeout | null = null;
  const publishState = () => {
    bus.publishUpstreamState(state).catch((error: unknown) => {
      logger.warn({ err: error }, 'upstream state not told to the other replicas');
    });
  };
  let stream: EventStream | null = null;
  let state: UpstreamState = 'offline';
  let rejectedCount = 0;
  let isStarting = false;
  /** Bumped by stop(): a start still reading its position then does not connect. */
  let stops = 0;
  /**
   * Each upstream connection is an epoch: resumeAfter() begins the next one. Events are
   * stored only in the order the upstream sent them, so once storing one failed for the
   * database (disk full, busy, connection lost), nothing received later on that connection
   * may be stored: it would move the resume position past the missing event for good.
   */
  let epoch = 0;
  /** The newest epoch in which storing failed; its (and older) events are dropped unstored. */
  let failedEpoch = -1;
  /** Events (new or redelivered) of this tick, in order; bounded by the client's ingress queue. */
  let queued: { events: NormalizedEvent[]; epoch: number }[] = [];
  /** A drain of `queued` is scheduled on `storing` and has not started yet. */
  let isDrainScheduled = false;
  let flushTimer: NodeJS.Immediate | null = null;
  /** The stores' writes of earlier ticks, in order: each batch commits before the next. */
  let storing: Promise<void> = Promise.resolve();
  /**
   * The resume position as of the last committed batch. The stream asks for it synchronously
   * on every reconnect; events of a batch still being stored are redelivered then and dropped
   * as duplicates by the store, so nothing is lost and nothing is relayed twice.
   */
  let resumeFrom: string | null = null;
  /**
   * The newest event this relay stored (null until its first), from which `resumeFrom` is
   * derived as the store derives it (the sequence, else the id), once per committed batch
   * instead of read back. Another writer (a previous leader finishing) can only have stored
   * newer rows, so this position is never past the store's: at worst a few events come again
   * and are dropped as duplicates.
   */
  let newest: { id: string; sequence: number | null } | null = null;
  /** Recently stored ids and their upstream sequence (null while the upstream gave none). */
  const recent = new Map<string, number | null>();
  const remember = (id: string, sequence: number | null) => {
    recent.delete(id);
    recent.set(id, sequence);
    if (recent.size > RECENT_IDS) {
      const oldest = recent.keys().next();
      if (!oldest.done) recent.delete(oldest.value);
    }
  };
  /**
   * After a commit: `rows` are the events it stored, `events` all it wrote (a duplicate that
   * carries a sequence fills in one the first frame lacked, see the store's `add`).
   */
  const committed = (events: readonly NormalizedEvent[], rows: readonly StoredEvent[]) => {
    for (const row of rows) remember(row.id, row.sequence);
    const last = rows.at(-1);
    if (last) newest = { id: last.id, sequence: last.sequence };
    for (const event of events) {
      // Only a row known to lack its sequence (`null`, not absent) was filled in.
      if (event.sequence === null || recent.get(event.id) !== null) continue;
      remember(event.id, event.sequence);
      if (newest?.id === event.id) newest = { id: event.id, sequence: event.sequence };
    }
    if (newest) resumeFrom = newest.sequence === null ? newest.id : String(newest.sequence);
  };

  /**
   * Storing stopped at an event for a database fault: the rest of that connection's events
   * are dropped (the upstream redelivers them), and the connection itself, so the stream
   * resumes from the last STORED event. A newer connection already resumed from no later
   * than the committed position, so it redelivers the event anyway and is kept.
   */
  const halt = (batchEpoch: number, error: unknown, eventId: string | undefined) => {
    failedEpoch = Math.max(failedEpoch, batchEpoch);
    logger.error(
      { err: error, eventId },
      'event store unavailable; resuming the upstream stream from the last stored event',
    );
    if (batchEpoch === epoch) stream?.dropConnection();
  };

  /**
   * Stores one event outside a batch: false when the database failed (stop here). An event
   * the database refuses as data (a constraint, a value it cannot hold) would fail again on
   * every redelivery, so it is kept aside with its reason instead, like a rejected frame.
   */
  const storeOne = async (
    event: NormalizedEvent,
    batchEpoch: number,
    stored: StoredEvent[],
  ): Promise<boolean> => {
    try {
      const row = await store.add(event);
      if (row) stored.push(row);
      committed([event], row ? [row] : []);
      return true;
    } catch (error) {
      if (!(error instanceof HttpError)) {
        halt(batchEpoch, error, event.id);
        return false;
      }
      rejectedCount += 1;
      logger.error({ err: error, eventId: event.id }, 'event refused by the store; kept aside');
      await store
        .rejected('store-refused', error.message, event.raw)
        .catch((rejectError: unknown) => {
          logger.error({ err: rejectError }, 'rejected event store failed');
        });
      return true;
    }
  };

  /**
   * Stores the pending events in one transaction, then relays the new ones (a redelivery of an
   * event whose first store failed is new). When the transaction fails for the data of some
   * event, the events are stored one by one, up to the first that fails for the database.
   */
  const storeBatch = async (batch: NormalizedEvent[], batchEpoch: number): Promise<void> => {
    if (batchEpoch <= failedEpoch) return;
    let stored: StoredEvent[] = [];
    try {
      stored = await store.addMany(batch);
      committed(batch, stored);
    } catch (error) {
      if (!(error instanceof HttpError)) {
        halt(batchEpoch, error, batch[0]?.id);
      } else {
        logger.warn(
          { err: error, events: batch.length },
          'event batch refused by the store; storing one by one',
        );
        for (const event of batch) {
          if (!(await storeOne(event, batchEpoch, stored))) break;
        }
      }
    }
    // What was stored before a failure still goes out, in order.
    feed.committed(stored);
    const newest = stored.at(-1);
    // After the commit, never inside it; the others read the events by position.
    if (newest) {
      bus.publishEvents(newest.seq).catch((error: unknown) => {
        // They catch up at the next NOTIFY (or when their listener reconnects).
        logger.warn({ err: error }, 'stored events not announced to the other replicas');
      });
    }
  };

  /**
   * Group commit: while one batch is being stored, the events that arrive meanwhile wait and
   * go together in the next transaction, so the store's round trips (several on PostgreSQL:
   * the write lock, the inserts, the commit, the resume position) are paid per batch rather
   * than per event; a backlog shrinks instead of growing. Batches never mix connections.
   */
  const flush = (): Promise<void> => {
    if (flushTimer) clearImmediate(flushTimer);
    flushTimer = null;
    if (queued.length === 0 || isDrainScheduled) return storing;
    isDrainScheduled = true;
    const drain = async () => {
      isDrainScheduled = false;
      const batches = queued;
      queued = [];
      for (const batch of batches) await storeBatch(batch.events, batch.epoch);
    };
    storing = storing.then(drain, drain).catch((error: unknown) => {
      logger.error({ err: error }, 'event relay processing failed');
    });
    return storing;
  };

  const enqueue = (event: NormalizedEvent) => {
    // Storing already failed on this connection: the resumed one redelivers this event.
    if (epoch <= failedEpoch) return;
    // A redelivery of a stored event that brings nothing new (no sequence to fill in).
    if (recent.has(event.id) && (event.sequence === null || recent.get(event.id) !== null)) return;
    const last = queued.at(-1);
    if (last?.epoch === epoch) last.events.push(event);
    else queued.push({ events: [event], epoch });
    flushTimer ??= setImmediate(() => {
      void flush();
    });
  };

  const setState = (next: UpstreamState) => {
    if (next === state) return;
    state = next;
    hub.broadcast(upstreamFrame(next));
    logger.info({ upstreamState: next }, 'event relay upstream state');
    if (isLeading) publishState();
  };

  const mapState = (next: SocketState, attempt: number): UpstreamState => {
    if (next === 'open') return 'connected';
    if (next === 'closed') return 'offline';
    return attempt > OFFLINE_AFTER_FAILURES ? 'offline' : 'reconnecting';
  };

  return {
    get state(): UpstreamState {
      return state;
    },
    get rejectedCount(): number {
      return rejectedCount;
    },
    /** Connects once the stored resume position is read (resolves when connecting began). */
    async start(): Promise<void> {
      if (stream || isStarting || !options.key) {
        if (!options.key) logger.warn('no API key with websockets:read: the event relay is off');
        return;
      }
      isStarting = true;
      isLeading = true;
      const stopsBefore = stops;
      try {
        // Read once per term of leading; each committed batch advances it from then on.
        newest = null;
        resumeFrom = await store.resumePosition();
      } finally {
        isStarting = false;
      }
      if (stops !== stopsBefore) return;
      const key = options.key;
      stream = connectEventStream({
        wsUrl: options.wsUrl,
        signer: createSodiumSigner(key.keyId, key.seed),
        expectedOrgId: options.orgId,
        resumeAfter: () => {
          void flush();
          epoch += 1;
          return resumeFrom;
        },
        onEvent: enqueue,
        // A redelivery may carry a sequence the first frame lacked, or an event whose store failed.
        onDuplicate: enqueue,
        onRejected: (rejection) => {
          rejectedCount += 1;
          store
            .rejected(rejection.reason, rejection.detail, rejection.raw)
            .catch((error: unknown) => {
              logger.error({ err: error }, 'rejected event store failed');
            });
          logger.warn({ reason: rejection.reason, detail: rejection.detail }, 'event rejected');
        },
        onError: (error) => {
          logger.error({ err: error }, 'event relay processing failed');
        },
        onState: (next, detail) => {
          if (detail.error)
            logger.warn({ error: detail.error, attempt: detail.attempt }, 'event stream');
          setState(mapState(next, detail.attempt));
        },
        ...(options.backoff ? { backoff: options.backoff } : {}),
        ...(options.pingIntervalMs ? { pingIntervalMs: options.pingIntervalMs } : {}),
      });
      setState('reconnecting');
      stateTimer = setInterval(publishState, STATE_REPEAT_MS);
      stateTimer.unref();
    },
    /** A follower shows the leader's upstream state (told by the bus). */
    follow(next: UpstreamState): void {
      if (!isLeading) setState(next);
    },
    async stop(): Promise<void> {
      stops += 1;
      isLeading = false;
      if (stateTimer) clearInterval(stateTimer);
      stateTimer = null;
      const current = stream;
      stream = null;
      if (current) await current.close();
      await flush();
    },
    /** Test and operations hook: drops the upstream socket as a network fault would. */
    dropUpstream(): void {
      stream?.dropConnection();
    },
  };
}

export type Relay = ReturnType<typeof createRelay>;
