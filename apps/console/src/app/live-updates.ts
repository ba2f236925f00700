import { isStatusRegression, isTerminalStatus, BoundedIdSet } from '@settlement/protocol';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { accountKeys } from '../features/accounts/api/keys';
import { fetchEventHistory } from '../features/events/api/event-history';
import { governanceKeys } from '../features/governance/api/keys';
import { transactionKeys } from '../features/transactions/api/keys';
import { treasuryKeys } from '../features/treasury/api/keys';
import { walletKeys } from '../features/wallets/api/keys';
import { connectEventsSocket } from '../lib/events-socket';
import type { EventsSocket, RelayFrame, RelayedEvent, SocketState } from '../lib/events-socket';
import { createListRefresher, createStatusPatcher } from './live-lists';
import { createOwedRefetch } from './owed-refetch';
import { CLOSED_LIVE_STATE, getLiveState, updateLiveState } from './live-state';
import { BACKFILL_MAX_PAGES, createStreamHealthTracker, runBackfill } from './stream-health';

/**
 * The one place where events reach the cache. One socket for the whole app; every event
 * invalidates exactly the queries of the REST resources the BFF says it touched.
 */

/**
 * `isPagedList`: an infinite list of transactions. After events it refreshes only its first
 * page (`live-lists.ts`), never every loaded page.
 */
export type KeyTarget = { queryKey: QueryKey; exact: boolean; isPagedList?: true };

const segment = '([^/?#]+)';
const routes: { pattern: RegExp; keys: (id: string) => KeyTarget[] }[] = [
  {
    pattern: /^\/api\/v1\/ledger\/accounts$/,
    keys: () => [{ queryKey: accountKeys.lists(), exact: false }],
  },
  {
    pattern: new RegExp(`^/api/v1/ledger/accounts/${segment}$`),
    keys: (id) => [{ queryKey: accountKeys.detail(id), exact: true }],
  },
  {
    pattern: new RegExp(`^/api/v1/ledger/accounts/${segment}/balances$`),
    keys: (id) => [{ queryKey: accountKeys.balances(id), exact: true }],
  },
  {
    pattern: new RegExp(`^/api/v1/ledger/accounts/${segment}/wallets$`),
    keys: (id) => [{ queryKey: accountKeys.wallets(id), exact: true }],
  },
  {
    pattern: new RegExp(`^/api/v1/ledger/accounts/${segment}/transactions$`),
    keys: (id) => [{ queryKey: accountKeys.transactions(id), exact: true, isPagedList: true }],
  },
  { pattern: /^\/api\/v1\/wallets$/, keys: () => [{ queryKey: walletKeys.lists(), exact: false }] },
  {
    pattern: new RegExp(`^/api/v1/wallets/${segment}$`),
    keys: (id) => [{ queryKey: walletKeys.detail(id), exact: true }],
  },
  {
    pattern: new RegExp(`^/api/v1/wallets/${segment}/balances$`),
    keys: (id) => [
      { queryKey: walletKeys.balances(id), exact: true },
      // The overview's totals add every wallet's balances.
      { queryKey: treasuryKeys.overview(), exact: true },
    ],
  },
  {
    pattern: /^\/api\/v1\/transactions$/,
    keys: () => [
      { queryKey: transactionKeys.lists(), exact: false, isPagedList: true },
      // Withdrawals in flight on the overview.
      { queryKey: treasuryKeys.overview(), exact: true },
    ],
  },
  {
    pattern: new RegExp(`^/api/v1/transactions/${segment}$`),
    keys: (id) => [
      { queryKey: transactionKeys.detail(id), exact: true },
      { queryKey: transactionKeys.timeline(id), exact: true },
    ],
  },
  // Governance `change` frames (withdrawal requests, policy, address book): BFF-only paths.
  {
    pattern: /^\/withdrawal-requests$/,
    keys: () => [
      { queryKey: governanceKeys.requestLists(), exact: false },
      // Requests awaiting approval count against the limits a dry run reports.
      { queryKey: transactionKeys.dryRuns(), exact: false },
    ],
  },
  {
    pattern: new RegExp(`^/withdrawal-requests/${segment}$`),
    keys: (id) => [{ queryKey: governanceKeys.requestDetail(id), exact: true }],
  },
  {
    pattern: /^\/policy$/,
    keys: () => [
      { queryKey: governanceKeys.policy(), exact: false },
      { queryKey: transactionKeys.dryRuns(), exact: false },
    ],
  },
  {
    pattern: /^\/policy\/versions$/,
    keys: () => [{ queryKey: governanceKeys.policyVersions(), exact: true }],
  },
  {
    pattern: /^\/address-book$/,
    keys: () => [
      { queryKey: governanceKeys.addressBook(), exact: false },
      // The withdrawal form's copy, and its dry runs (an address may have joined the book).
      { queryKey: transactionKeys.addressBook(), exact: true },
      { queryKey: transactionKeys.dryRuns(), exact: false },
    ],
  },
];

/** The cache keys of one REST path named in a frame's `invalidates` (unknown paths: none). */
export function keysForPath(path: string): KeyTarget[] {
  const clean = path.replace(/^\/bff/, '').split('?')[0] ?? '';
  for (const route of routes) {
    const match = route.pattern.exec(clean);
    if (match) return route.keys(decodeURIComponent(match[1] ?? ''));
  }
  return [];
}

/** Writes a terminal status from an event straight into cached copies (never backwards). */
function applyTerminalStatus(queryClient: QueryClient, event: RelayedEvent): void {
  const id = event.data.transactionId;
  const status = event.data.status;
  if (typeof id !== 'string' || typeof status !== 'string' || !isTerminalStatus(status)) return;
  queryClient.setQueriesData(
    { queryKey: transactionKeys.detail(id), exact: true },
    (cached: unknown) => {
      if (
        !isTransactionLike(cached) ||
        cached.id !== id ||
        cached.status === status ||
        isStatusRegression(cached.status, status)
      ) {
        return cached;
      }
      return { ...cached, status };
    },
  );
}

function isTransactionLike(value: unknown): value is { id: string; status: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof Reflect.get(value, 'id') === 'string' &&
    typeof Reflect.get(value, 'status') === 'string'
  );
}

export type Invalidate = (target: KeyTarget) => void;

/** The empty prefix: every query's key starts with it. */
const EVERY_QUERY: KeyTarget = { queryKey: [], exact: false };

/** What governance `change` frames name: the relay keeps no history of them to resume from. */
const UNREPLAYED: KeyTarget[] = [
  { queryKey: governanceKeys.all, exact: false },
  { queryKey: transactionKeys.addressBook(), exact: true },
  { queryKey: transactionKeys.dryRuns(), exact: false },
];

/** The lists events change; what a backfill refetches from REST. */
const RECONCILED_KEYS = [transactionKeys.all, walletKeys.all, accountKeys.all, treasuryKeys.all];

/** Everything events and changes keep fresh (never the session or the catalog). */
const STREAMED: KeyTarget[] = [
  ...RECONCILED_KEYS.map((queryKey) => ({ queryKey, exact: false })),
  ...UNREPLAYED,
];

/**
 * Marks a query stale at once. A refetch already under way is kept rather than cancelled,
 * so a burst of events cannot keep a large list from ever finishing its load.
 */
export function invalidateNow(queryClient: QueryClient): Invalidate {
  return (target) => {
    void queryClient.invalidateQueries(
      { queryKey: target.queryKey, exact: target.exact },
      { cancelRefetch: false },
    );
  };
}

/** How long events are gathered before the queries they name are invalidated once each. */
const INVALIDATION_WINDOW_MS = 250;

/**
 * Coalesces invalidations: at hundreds of events a second, each query is still refetched at
 * most once per window (measured in BENCHMARKS.md: one list reload per event starved the page).
 */
export function createInvalidationBatcher(
  queryClient: QueryClient,
  windowMs: number = INVALIDATION_WINDOW_MS,
  now: Invalidate = invalidateNow(queryClient),
): { invalidate: Invalidate; flush: () => void; dispose: () => void } {
  const pending = new Map<string, KeyTarget>();
  const lists = createListRefresher(queryClient, now);
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const targets = [...pending.values()];
    pending.clear();
    for (const target of targets) {
      if (target.isPagedList) lists.refresh(target);
      else now(target);
    }
  };
  return {
    invalidate: (target) => {
      pending.set(JSON.stringify([target.queryKey, target.exact]), target);
      timer ??= setTimeout(flush, windowMs);
    },
    flush,
    dispose: () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      pending.clear();
      lists.cancel();
    },
  };
}

export function applyFrame(
  queryClient: QueryClient,
  frame: RelayFrame,
  invalidate: Invalidate = invalidateNow(queryClient),
): void {
  if (frame.kind === 'resync') {
    // The relay cannot replay from where this tab stopped (every query is invalidated once,
    // active ones refetch from REST now), or events arrived while this page was read before
    // its socket joined (what the stream keeps fresh is read again).
    const targets = frame.reason === 'events-before-open' ? STREAMED : [EVERY_QUERY];
    for (const target of targets) invalidate(target);
    return;
  }
  if (frame.kind !== 'event' && frame.kind !== 'change') return;
  if (frame.kind === 'event') applyTerminalStatus(queryClient, frame.event);
  for (const path of frame.invalidates) {
    for (const target of keysForPath(path)) invalidate(target);
  }
}

const FEED_CAPACITY = 1_000;

const FEED_FLUSH_MS = 100;

/** Without a live socket, what is on screen is refreshed on this period instead. */
const DEGRADED_POLL_MS = 10_000;

type TerminalNotice = { transactionId: string; status: string; event: RelayedEvent };

export type LiveHandlers = {
  onTerminal: (notice: TerminalNotice) => void;
  /** The relay closed the socket because the session ended; it does not reconnect. */
  onSessionEnded: () => void;
  /**
   * The socket dropped for another reason and is about to reconnect. A browser cannot tell an
   * upgrade refused for an ended session from any other failure, so this is where to ask.
   */
  onConnectionLost: () => void;
};

let backfill: (() => Promise<void>) | null = null;

/**
 * Reconciles the stream's open sequence gaps (the panel's "Backfill"): missing events from the
 * BFF's history through the same dedupe, then the lists refetched from REST. No-op while closed.
 */
export function requestBackfill(): Promise<void> {
  return backfill?.() ?? Promise.resolve();
}

/**
 * The socket's state as the app tells it: the socket reports `connecting` on every attempt and
 * `reconnecting` while it waits to retry, whether or not a connection ever opened. Until one has
 * opened, every attempt is still the first connection (`connecting`); after one was lost, every
 * attempt is a reconnect (`reconnecting`).
 */
function shownSocketState(state: SocketState, hasOpened: boolean): SocketState {
  if (state === 'connecting' || state === 'reconnecting') {
    return hasOpened ? 'reconnecting' : 'connecting';
  }
  return state;
}

/** Opens the app's socket; returns the function that closes it. */
export function startLiveUpdates(
  queryClient: QueryClient,
  handlers: LiveHandlers,
  now: () => number = Date.now,
): () => void {
  const seen = new BoundedIdSet(5_000);
  const owed = createOwedRefetch(queryClient);
  const invalidateOwed: Invalidate = (target) => {
    owed.invalidate({ queryKey: target.queryKey, exact: target.exact });
  };
  const batcher = createInvalidationBatcher(queryClient, INVALIDATION_WINDOW_MS, invalidateOwed);
  const statuses = createStatusPatcher(queryClient);
  const health = createStreamHealthTracker();
  // New feed rows (and the health counters) are rendered once per frame-ish tick, not per event.
  let arrivals: RelayedEvent[] = [];
  let feedTimer: ReturnType<typeof setTimeout> | null = null;
  const flushFeed = () => {
    feedTimer = null;
    const newestFirst = arrivals.reverse();
    arrivals = [];
    updateLiveState({
      ...(newestFirst.length > 0 && {
        feed: [...newestFirst, ...getLiveState().feed].slice(0, FEED_CAPACITY),
        received: getLiveState().received + newestFirst.length,
      }),
      health: health.snapshot(),
    });
  };
  const scheduleFlush = () => {
    feedTimer ??= setTimeout(flushFeed, FEED_FLUSH_MS);
  };
  /** The one dedupe every event passes, live or backfilled; false for one already seen. */
  const ingest = (
    frame: Extract<RelayFrame, { kind: 'event' }>,
    source: 'live' | 'backfill',
  ): boolean => {
    if (!seen.addIfNew(frame.event.id)) return false;
    applyFrame(queryClient, frame, batcher.invalidate);
    const { transactionId, status } = frame.event.data;
    if (typeof transactionId === 'string' && typeof status === 'string') {
      statuses.add(transactionId, status);
    }
    // A backfilled event's gap is filled by the backfill itself.
    if (source === 'live') health.recordEvent(frame.event, now());
    arrivals.push(frame.event);
    scheduleFlush();
    return true;
  };
  let isRunning = false;
  backfill = async () => {
    if (isRunning) return;
    isRunning = true;
    const publish = () => {
      updateLiveState({ health: health.snapshot() });
    };
    const running = runBackfill(health, {
      fetchHistory: (before) => fetchEventHistory({}, before),
      // History rows carry no `invalidates`: the refetch below covers what they changed.
      ingest: (event) => ingest({ kind: 'event', event, invalidates: [] }, 'backfill'),
      refetch: async () => {
        await Promise.all(
          RECONCILED_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
        );
      },
      now,
      maxPages: BACKFILL_MAX_PAGES,
    });
    publish();
    await running.finally(() => {
      isRunning = false;
    });
    publish();
  };
  let socket: EventsSocket | null = null;
  let hasOpened = false;
  socket = connectEventsSocket({
    onState: (socketState) => {
      if (socketState === 'open') {
        // Events a socket missed are replayed after its position, or (without one) announced
        // by a `resync`; governance changes are neither, so what they name is read again.
        for (const target of UNREPLAYED) invalidateOwed(target);
        hasOpened = true;
      }
      updateLiveState({ socket: shownSocketState(socketState, hasOpened) });
      if (socketState === 'reconnecting') handlers.onConnectionLost();
    },
    onSessionEnded: handlers.onSessionEnded,
    onFrame: (frame) => {
      if (frame.kind === 'upstream') {
        updateLiveState({ upstream: frame.state });
        return;
      }
      if (frame.kind === 'resync') {
        // Everything is refetched anyway: the gathered invalidations (and known gaps) are moot.
        batcher.dispose();
        health.reset();
        scheduleFlush();
        applyFrame(queryClient, frame, invalidateOwed);
        return;
      }
      if (frame.kind !== 'event') {
        applyFrame(queryClient, frame, batcher.invalidate);
        return;
      }
      const { event } = frame;
      if (!ingest(frame, 'live')) {
        health.recordDuplicate();
        scheduleFlush();
        socket?.markProcessed(event.id);
        return;
      }
      const { transactionId, status } = event.data;
      if (
        event.type.startsWith('transaction.') &&
        typeof transactionId === 'string' &&
        typeof status === 'string' &&
        isTerminalStatus(status) &&
        event.type !== 'transaction.updated'
      ) {
        handlers.onTerminal({ transactionId, status, event });
      }
      // Committed only after local processing, so a reconnect resumes right after it.
      socket?.markProcessed(event.id);
    },
  });
  // Degraded mode: while the socket is down, refetch what is on screen (active queries only)
  // of everything the stream keeps fresh, so statuses, balances, the overview and approvals
  // still move; the indicator says live updates are off.
  const poll = setInterval(() => {
    if (getLiveState().socket === 'open') return;
    for (const target of STREAMED) {
      void queryClient.invalidateQueries({ queryKey: target.queryKey, exact: target.exact });
    }
  }, DEGRADED_POLL_MS);
  return () => {
    backfill = null;
    clearInterval(poll);
    batcher.dispose();
    owed.dispose();
    statuses.dispose();
    if (feedTimer !== null) clearTimeout(feedTimer);
    arrivals = [];
    socket?.close();
    socket = null;
    updateLiveState(CLOSED_LIVE_STATE);
  };
}
