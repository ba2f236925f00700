import type { RelayedEvent } from '@settlement/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ageMs,
  createStreamHealthTracker,
  eventsInGaps,
  formatDuration,
  isBelowGaps,
  lagMs,
  missingCount,
  runBackfill,
  type HistoryPage,
} from './stream-health';

const T0 = Date.parse('2026-03-01T12:00:00Z');

function event(sequence: number | null, overrides: Partial<RelayedEvent> = {}): RelayedEvent {
  return {
    id: `evt_${String(sequence)}_${overrides.orgId ?? 'org_1'}`,
    type: 'transaction.updated',
    occurredAt: new Date(Date.now() - 2_000).toISOString(),
    orgId: 'org_1',
    data: {},
    sequence,
    ...overrides,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('stream health: lag and age', () => {
  it('measures lag from the newest event occurredAt and age from its arrival, both moving with the clock', () => {
    const tracker = createStreamHealthTracker();
    expect(lagMs(tracker.snapshot(), Date.now())).toBeNull();
    expect(ageMs(tracker.snapshot(), Date.now())).toBeNull();

    tracker.recordEvent(event(1), Date.now());
    expect(lagMs(tracker.snapshot(), Date.now())).toBe(2_000);
    expect(ageMs(tracker.snapshot(), Date.now())).toBe(0);

    vi.advanceTimersByTime(5_000);
    expect(lagMs(tracker.snapshot(), Date.now())).toBe(7_000);
    expect(ageMs(tracker.snapshot(), Date.now())).toBe(5_000);
  });

  it('leaves lag and age alone for backfilled (old) events', () => {
    const tracker = createStreamHealthTracker();
    tracker.recordEvent(event(5), Date.now());
    vi.advanceTimersByTime(1_000);
    tracker.recordEvent(event(3, { occurredAt: '2026-01-01T00:00:00Z' }), Date.now(), 'backfill');
    expect(ageMs(tracker.snapshot(), Date.now())).toBe(1_000);
    expect(lagMs(tracker.snapshot(), Date.now())).toBe(3_000);
  });
});

describe('stream health: duplicates and gaps', () => {
  it('counts duplicates dropped', () => {
    const tracker = createStreamHealthTracker();
    tracker.recordDuplicate();
    tracker.recordDuplicate();
    expect(tracker.snapshot().duplicatesDropped).toBe(2);
  });

  it('finds no gap in consecutive sequences nor before the first one seen', () => {
    const tracker = createStreamHealthTracker();
    for (const sequence of [40, 41, 42]) tracker.recordEvent(event(sequence), Date.now());
    expect(tracker.snapshot().openGaps).toEqual([]);
    expect(tracker.snapshot().gapsDetected).toBe(0);
  });

  it('opens a gap for each jump in sequence, per organization', () => {
    const tracker = createStreamHealthTracker();
    tracker.recordEvent(event(1), Date.now());
    tracker.recordEvent(event(1, { orgId: 'org_2' }), Date.now());
    tracker.recordEvent(event(5), Date.now());
    tracker.recordEvent(event(2, { orgId: 'org_2' }), Date.now());
    tracker.recordEvent(event(7), Date.now());
    expect(tracker.snapshot().openGaps).toEqual([
      { orgId: 'org_1', from: 2, to: 4, detectedAt: T0 },
      { orgId: 'org_1', from: 6, to: 6, detectedAt: T0 },
    ]);
    expect(tracker.snapshot().gapsDetected).toBe(2);
    expect(missingCount(tracker.snapshot().openGaps)).toBe(4);
  });

  it('lets a late event fill its place in a gap, splitting it', () => {
    const tracker = createStreamHealthTracker();
    tracker.recordEvent(event(1), Date.now());
    tracker.recordEvent(event(6), Date.now());
    tracker.recordEvent(event(3), Date.now());
    expect(tracker.snapshot().openGaps.map(({ from, to }) => [from, to])).toEqual([
      [2, 2],
      [4, 5],
    ]);
    tracker.recordEvent(event(2), Date.now());
    tracker.recordEvent(event(4), Date.now());
    tracker.recordEvent(event(5), Date.now());
    expect(tracker.snapshot().openGaps).toEqual([]);
    // Detected stays: the panel says a gap happened even after it closed.
    expect(tracker.snapshot().gapsDetected).toBe(1);
  });

  it('ignores events without a sequence (MVP envelope) for gaps', () => {
    const tracker = createStreamHealthTracker();
    tracker.recordEvent(event(1), Date.now());
    tracker.recordEvent(event(null), Date.now());
    tracker.recordEvent(event(2), Date.now());
    expect(tracker.snapshot().openGaps).toEqual([]);
  });

  it('forgets gaps and the last sequence on a resync', () => {
    const tracker = createStreamHealthTracker();
    tracker.recordEvent(event(1), Date.now());
    tracker.recordEvent(event(9), Date.now());
    tracker.reset();
    tracker.recordEvent(event(100), Date.now());
    expect(tracker.snapshot().openGaps).toEqual([]);
  });
});

describe('gap helpers', () => {
  const gaps = [{ orgId: 'org_1', from: 3, to: 5, detectedAt: T0 }];
  it('picks the events inside a gap, oldest first', () => {
    const picked = eventsInGaps([event(6), event(5), event(4), event(2), event(null)], gaps);
    expect(picked.map((e) => e.sequence)).toEqual([4, 5]);
    expect(eventsInGaps([event(4, { orgId: 'org_2' })], gaps)).toEqual([]);
  });
  it('knows when a newest-first page reached below every gap', () => {
    expect(isBelowGaps([event(9), event(6)], gaps)).toBe(false);
    expect(isBelowGaps([event(4), event(2)], gaps)).toBe(true);
  });
});

describe('runBackfill', () => {
  function trackerWithGap() {
    const tracker = createStreamHealthTracker();
    tracker.recordEvent(event(1), Date.now());
    tracker.recordEvent(event(10), Date.now());
    return tracker;
  }
  /** Stored history 1..10, newest first, in pages of three. */
  const history = (before: number | null): Promise<HistoryPage> => {
    const top = before ?? 11;
    const items = [top - 1, top - 2, top - 3].filter((n) => n >= 1).map((n) => event(n));
    return Promise.resolve({ items, nextBefore: top - 3 > 1 ? top - 3 : null });
  };

  it('feeds the missing events through the dedupe, refetches, and closes the gap', async () => {
    const tracker = trackerWithGap();
    const seen = new Set(['evt_5_org_1']);
    const ingested: number[] = [];
    const fetchHistory = vi.fn(history);
    const refetch = vi.fn(() => Promise.resolve());
    await runBackfill(tracker, {
      fetchHistory,
      ingest: (e) => {
        if (seen.has(e.id)) return false;
        seen.add(e.id);
        ingested.push(e.sequence ?? -1);
        return true;
      },
      refetch,
      now: Date.now,
    });
    // 5 was known already: dropped by the dedupe, yet no longer missing.
    expect(ingested).toEqual([2, 3, 4, 6, 7, 8, 9]);
    expect(refetch).toHaveBeenCalledOnce();
    // Pages 10-8, 7-5, 4-2: the third reaches below the gap, so the fourth is never asked for.
    expect(fetchHistory).toHaveBeenCalledTimes(3);
    expect(tracker.snapshot().openGaps).toEqual([]);
    expect(tracker.snapshot().backfill).toEqual({
      state: 'done',
      at: T0,
      recovered: 7,
      unrecovered: 0,
    });
  });

  it('closes through REST what the history lacks, reporting it unrecovered', async () => {
    const tracker = trackerWithGap();
    const refetch = vi.fn(() => Promise.resolve());
    await runBackfill(tracker, {
      fetchHistory: () => Promise.reject(new Error('403')),
      ingest: () => true,
      refetch,
      now: Date.now,
    });
    expect(refetch).toHaveBeenCalledOnce();
    expect(tracker.snapshot().openGaps).toEqual([]);
    expect(tracker.snapshot().backfill).toMatchObject({ recovered: 0, unrecovered: 8 });
  });

  it('keeps a gap that opened while it ran', async () => {
    const tracker = trackerWithGap();
    await runBackfill(tracker, {
      fetchHistory: history,
      ingest: () => true,
      refetch: () => {
        tracker.recordEvent(event(20), Date.now());
        return Promise.resolve();
      },
      now: Date.now,
      maxPages: 1,
    });
    expect(tracker.snapshot().openGaps.map(({ from, to }) => [from, to])).toEqual([[11, 19]]);
  });

  it('reports a failed refetch and keeps the gap open', async () => {
    const tracker = trackerWithGap();
    await runBackfill(tracker, {
      fetchHistory: () => Promise.reject(new Error('offline')),
      ingest: () => true,
      refetch: () => Promise.reject(new Error('network down')),
      now: Date.now,
    });
    expect(tracker.snapshot().backfill).toEqual({
      state: 'failed',
      at: T0,
      message: 'network down',
    });
    expect(tracker.snapshot().openGaps).toHaveLength(1);
  });
});

describe('formatDuration', () => {
  it('keeps tenths below ten seconds and drops to coarser units above', () => {
    expect(formatDuration(0)).toBe('0.0 s');
    expect(formatDuration(2_345)).toBe('2.3 s');
    expect(formatDuration(12_900)).toBe('12 s');
    expect(formatDuration(184_000)).toBe('3 min 4 s');
    expect(formatDuration(7_500_000)).toBe('2 h 5 min');
  });
});
