import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSweepSchedule, type SweepSchedule } from './sweep-schedule';

const INTERVAL = 60_000;
const FIRST_RETRY = 2_000;

/**
 * A sweep whose runs are recorded (ms since the start); the next runs can be told how many
 * submissions each defers.
 */
function harness() {
  const startedAt = Date.now();
  const runs: number[] = [];
  const errors: unknown[] = [];
  const deferrals: number[] = [];
  let failNext = false;
  let release: (() => void) | null = null;
  let isHeld = false;
  let schedule: SweepSchedule | null = null;
  schedule = createSweepSchedule({
    intervalMs: INTERVAL,
    firstRetryMs: FIRST_RETRY,
    onError: (error) => errors.push(error),
    sweep: async () => {
      runs.push(Date.now() - startedAt);
      if (isHeld) {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      }
      if (failNext) {
        failNext = false;
        throw new Error('database is locked');
      }
      // As withdrawals.sweep does: each request the upstream did not take reports it.
      const count = deferrals.shift() ?? 0;
      for (let i = 0; i < count; i += 1) schedule?.resumeSoon();
    },
  });
  return {
    schedule,
    runs,
    errors,
    /** The next runs each defer this many submissions. */
    deferOnNextRuns: (...counts: number[]) => {
      deferrals.push(...counts);
    },
    failOnNextRun: () => {
      failNext = true;
    },
    hold: () => {
      isHeld = true;
    },
    letFinish: () => {
      isHeld = false;
      release?.();
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('createSweepSchedule', () => {
  it('sweeps at start and then once an interval while nothing is deferred', async () => {
    const h = harness();
    h.schedule.start();
    await vi.advanceTimersByTimeAsync(3 * INTERVAL);
    expect(h.runs).toEqual([0, INTERVAL, 2 * INTERVAL, 3 * INTERVAL]);
    h.schedule.stop();
  });

  it('comes back after 2 s when a submission is deferred between sweeps, not after the interval', async () => {
    const h = harness();
    h.schedule.start();
    await vi.advanceTimersByTimeAsync(10_000);
    // An approval at 10 s whose submission the upstream did not take.
    h.schedule.resumeSoon();
    await vi.advanceTimersByTimeAsync(FIRST_RETRY);
    expect(h.runs).toEqual([0, 10_000 + FIRST_RETRY]);
    // That retry went through: the next sweep is an interval later again.
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(h.runs).toEqual([0, 12_000, 12_000 + INTERVAL]);
    h.schedule.stop();
  });

  it('doubles the wait while sweeps keep being deferred, up to the interval, and starts over once one is not', async () => {
    const h = harness();
    // Seven sweeps in a row meet the outage, the eighth goes through.
    h.deferOnNextRuns(1, 1, 1, 1, 1, 1, 1);
    h.schedule.start();
    await vi.advanceTimersByTimeAsync(10 * INTERVAL);
    const waits = h.runs.slice(1).map((at, i) => at - (h.runs[i] ?? 0));
    expect(waits.slice(0, 8)).toEqual([
      2_000,
      4_000,
      8_000,
      16_000,
      32_000,
      60_000,
      60_000,
      INTERVAL,
    ]);
    // A deferral after that starts again from 2 s.
    const before = h.runs.length;
    h.schedule.resumeSoon();
    await vi.advanceTimersByTimeAsync(FIRST_RETRY);
    expect(h.runs).toHaveLength(before + 1);
    h.schedule.stop();
  });

  it('retries once for several requests deferred in one sweep', async () => {
    const h = harness();
    h.deferOnNextRuns(3);
    h.schedule.start();
    await vi.advanceTimersByTimeAsync(FIRST_RETRY + INTERVAL);
    expect(h.runs).toEqual([0, FIRST_RETRY, FIRST_RETRY + INTERVAL]);
    h.schedule.stop();
  });

  it('runs one sweep at a time: a deferral during a sweep is retried after it ends', async () => {
    const h = harness();
    h.hold();
    h.schedule.start();
    h.schedule.resumeSoon();
    h.schedule.resumeSoon();
    await vi.advanceTimersByTimeAsync(10 * FIRST_RETRY);
    expect(h.runs).toEqual([0]);
    h.letFinish();
    await vi.advanceTimersByTimeAsync(FIRST_RETRY);
    expect(h.runs).toEqual([0, 10 * FIRST_RETRY + FIRST_RETRY]);
    h.schedule.stop();
  });

  it('reports a failed sweep and keeps sweeping; stops for good', async () => {
    const h = harness();
    h.failOnNextRun();
    h.schedule.start();
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(h.errors).toHaveLength(1);
    expect(h.runs).toEqual([0, INTERVAL]);
    h.schedule.stop();
    h.schedule.resumeSoon();
    await vi.advanceTimersByTimeAsync(3 * INTERVAL);
    expect(h.runs).toEqual([0, INTERVAL]);
  });
});
