import type { RelayedEvent } from '@settlement/protocol';
import { EMPTY_HEALTH } from './live-state';

/**
 * Event-stream health, framework-free: what the Live badge's panel shows. Time is always passed
 * in (milliseconds since the epoch), so tests drive it with fake timers and nothing here reads a
 * clock.
 *
 * Gaps come from the topic envelope's `sequence`, which the upstream numbers per organization
 * (1, 2, 3, ...). Events without a sequence (the MVP envelope) cannot reveal a gap and are only
 * counted for lag and age.
 */

/** Missing sequences `from`..`to` (inclusive) of one organization's stream. */
export type SequenceGap = { orgId: string; from: number; to: number; detectedAt: number };

export type BackfillStatus =
  | { state: 'idle' }
  | { state: 'running'; startedAt: number }
  | { state: 'done'; at: number; recovered: number; unrecovered: number }
  | { state: 'failed'; at: number; message: string };

export type StreamHealthSnapshot = {
  /** Local time the newest event arrived; null before the first. */
  lastReceivedAt: number | null;
  /** `occurredAt` of the newest event (ms); null before the first or when unparseable. */
  lastOccurredAt: number | null;
  duplicatesDropped: number;
  /** Gaps found since the start (a gap later filled or backfilled still counts here). */
  gapsDetected: number;
  /** Gaps not yet filled by a late event or reconciled by a backfill, oldest first. */
  openGaps: readonly SequenceGap[];
  backfill: BackfillStatus;
};

/** Open gaps kept; beyond this the oldest are dropped (a backfill refetches everything anyway). */
const MAX_OPEN_GAPS = 100;

/** How many sequences the open gaps miss in total. */
export function missingCount(gaps: readonly SequenceGap[]): number {
  return gaps.reduce((sum, gap) => sum + (gap.to - gap.from + 1), 0);
}

/** Now minus the newest event's `occurredAt`: how far behind the upstream the console is. */
export function lagMs(health: StreamHealthSnapshot, now: number): number | null {
  return health.lastOccurredAt === null ? null : Math.max(0, now - health.lastOccurredAt);
}

/** Time since the newest event arrived here (a quiet stream and a stalled one look alike). */
export function ageMs(health: StreamHealthSnapshot, now: number): number | null {
  return health.lastReceivedAt === null ? null : Math.max(0, now - health.lastReceivedAt);
}

/** Removes `sequence` from the gaps that contain it (a late event fills its hole). */
function fill(gaps: readonly SequenceGap[], orgId: string, sequence: number): SequenceGap[] {
  return gaps.flatMap((gap) => {
    if (gap.orgId !== orgId || sequence < gap.from || sequence > gap.to) return [gap];
    const parts: SequenceGap[] = [];
    if (sequence > gap.from) parts.push({ ...gap, to: sequence - 1 });
    if (sequence < gap.to) parts.push({ ...gap, from: sequence + 1 });
    return parts;
  });
}

export type StreamHealthTracker = {
  /**
   * An event that passed the console's dedupe. A backfilled one only fills its gap: it is old, so
   * it says nothing about the stream's lag or when it last delivered.
   */
  recordEvent: (event: RelayedEvent, now: number, source?: 'live' | 'backfill') => void;
  /** An event the dedupe dropped (already seen by id). */
  recordDuplicate: () => void;
  /**
   * The relay could not resume: everything is refetched, and sequences may restart anywhere, so
   * the open gaps are moot and the next event is a new starting point.
   */
  reset: () => void;
  /** Records a backfill's progress; `done` clears the open gaps it reconciled. */
  backfillStarted: (now: number) => void;
  backfillFinished: (
    result: { recovered: number; reconciled: readonly SequenceGap[] },
    now: number,
  ) => void;
  backfillFailed: (message: string, now: number) => void;
  snapshot: () => StreamHealthSnapshot;
};

export function createStreamHealthTracker(): StreamHealthTracker {
  let health: StreamHealthSnapshot = EMPTY_HEALTH;
  /** Highest sequence seen per organization. */
  const highest = new Map<string, number>();
  const set = (next: Partial<StreamHealthSnapshot>) => {
    health = { ...health, ...next };
  };

  return {
    recordEvent(event, now, source = 'live') {
      if (source === 'live') {
        const occurred = Date.parse(event.occurredAt);
        set({ lastReceivedAt: now, lastOccurredAt: Number.isNaN(occurred) ? null : occurred });
      }
      const sequence = event.sequence;
      if (typeof sequence !== 'number' || !Number.isInteger(sequence)) return;
      const orgId = event.orgId ?? '';
      const top = highest.get(orgId);
      if (top === undefined) {
        // Nothing before this point was watched: what came earlier is history, not a gap.
        highest.set(orgId, sequence);
        return;
      }
      if (sequence <= top) {
        // Late or replayed: it may fill a hole found earlier.
        set({ openGaps: fill(health.openGaps, orgId, sequence) });
        return;
      }
      highest.set(orgId, sequence);
      if (sequence === top + 1) return;
      const gap: SequenceGap = { orgId, from: top + 1, to: sequence - 1, detectedAt: now };
      set({
        gapsDetected: health.gapsDetected + 1,
        openGaps: [...health.openGaps, gap].slice(-MAX_OPEN_GAPS),
      });
    },
    recordDuplicate() {
      set({ duplicatesDropped: health.duplicatesDropped + 1 });
    },
    reset() {
      highest.clear();
      set({ openGaps: [] });
    },
    backfillStarted(now) {
      set({ backfill: { state: 'running', startedAt: now } });
    },
    backfillFinished({ recovered, reconciled }, now) {
      // What is left of the gaps the backfill set out to close was missing from the history
      // too; the REST refetch reconciled what it changed, so those parts close as unrecovered.
      // Gaps that opened while it ran were not covered by its refetch: they stay open.
      const unrecovered = health.openGaps.filter((gap) => reconciled.some((r) => overlaps(r, gap)));
      set({
        openGaps: health.openGaps.filter((gap) => !unrecovered.includes(gap)),
        backfill: { state: 'done', at: now, recovered, unrecovered: missingCount(unrecovered) },
      });
    },
    backfillFailed(message, now) {
      set({ backfill: { state: 'failed', at: now, message } });
    },
    snapshot: () => health,
  };
}

function overlaps(a: SequenceGap, b: SequenceGap): boolean {
  return a.orgId === b.orgId && a.from <= b.to && b.from <= a.to;
}

/**
 * The events of `candidates` whose sequence falls in one of `gaps`, oldest first: what a
 * backfill feeds back through the dedupe.
 */
export function eventsInGaps(
  candidates: readonly RelayedEvent[],
  gaps: readonly SequenceGap[],
): RelayedEvent[] {
  return candidates
    .filter((event) => {
      const sequence = event.sequence;
      if (typeof sequence !== 'number') return false;
      const orgId = event.orgId ?? '';
      return gaps.some((gap) => gap.orgId === orgId && sequence >= gap.from && sequence <= gap.to);
    })
    .sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0));
}

/** True once a page of newest-first history reaches the start of every gap (older pages cannot help). */
export function isBelowGaps(page: readonly RelayedEvent[], gaps: readonly SequenceGap[]): boolean {
  if (gaps.length === 0) return true;
  const lowest = new Map<string, number>();
  for (const event of page) {
    if (typeof event.sequence !== 'number') continue;
    const orgId = event.orgId ?? '';
    lowest.set(orgId, Math.min(lowest.get(orgId) ?? Infinity, event.sequence));
  }
  return gaps.every((gap) => (lowest.get(gap.orgId) ?? Infinity) <= gap.from);
}

export type HistoryPage = { items: readonly RelayedEvent[]; nextBefore: number | null };

export type BackfillDeps = {
  /** One page of stored events, newest first (`before` null for the newest). */
  fetchHistory: (before: number | null) => Promise<HistoryPage>;
  /** Feeds one event through the console's dedupe; true when it was new. Gaps are filled here. */
  ingest: (event: RelayedEvent) => boolean;
  /** Invalidates and refetches the lists events change (REST is the source of truth). */
  refetch: () => Promise<void>;
  now: () => number;
  /** Pages read at most; past them the refetch alone reconciles what is left. */
  maxPages?: number;
};

export const BACKFILL_MAX_PAGES = 20;

/**
 * Reconciles the open gaps: the missing events are looked up in the BFF's stored history and fed
 * through the same dedupe as live ones (so the feed and cached statuses catch up), then the lists
 * are refetched from REST, which closes whatever the history did not have either.
 */
export async function runBackfill(tracker: StreamHealthTracker, deps: BackfillDeps): Promise<void> {
  const gaps = tracker.snapshot().openGaps;
  tracker.backfillStarted(deps.now());
  let found: RelayedEvent[] = [];
  try {
    let before: number | null = null;
    for (let page = 0; gaps.length > 0 && page < (deps.maxPages ?? BACKFILL_MAX_PAGES); page++) {
      const result = await deps.fetchHistory(before);
      found = [...found, ...eventsInGaps(result.items, gaps)];
      if (result.nextBefore === null || isBelowGaps(result.items, gaps)) break;
      before = result.nextBefore;
    }
  } catch {
    // The history is optional (a viewer may not read it, the BFF may be restarting): the REST
    // refetch below still reconciles what is shown, only the feed lacks the missing rows.
  }
  try {
    let recovered = 0;
    for (const event of eventsInGaps(found, gaps)) {
      if (deps.ingest(event)) recovered += 1;
      // Even one the dedupe knew (first seen without a sequence) is not missing after all.
      tracker.recordEvent(event, deps.now(), 'backfill');
    }
    await deps.refetch();
    tracker.backfillFinished({ recovered, reconciled: gaps }, deps.now());
  } catch (error) {
    tracker.backfillFailed(error instanceof Error ? error.message : 'Backfill failed.', deps.now());
  }
}

/** A short duration for the panel: "0.4 s", "12 s", "3 min 4 s", "2 h 5 min". */
export function formatDuration(ms: number): string {
  if (ms < 10_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)} s`;
  const seconds = Math.floor(ms / 1_000);
  if (seconds < 60) return `${String(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${String(minutes)} min ${String(seconds % 60)} s`;
  return `${String(Math.floor(minutes / 60))} h ${String(minutes % 60)} min`;
}
