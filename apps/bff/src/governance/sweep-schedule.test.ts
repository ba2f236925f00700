import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSweepSchedule, type SweepSchedule } from './sweep-schedule';

const INTERVAL = 60_000;
const FIRST_RETRY = 2_000;

/**
 * A sweep whose runs are recorded (ms since the start); the next runs can be told how many
 * submissions each defers.
 */
function harness(options: { withProbe?: boolean; probeThrows?: boolean } = {}) {
  const startedAt = Date.now();
  const runs: number[] = [];
  const probes: number[] = [];
  let isUpstreamAnswering = false;
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
    ...(options.withProbe
      ? {
          probe: () => {
            probes.push(Date.now() - startedAt);
            if (options.probeThrows && !isUpstreamAnswering) {
              return Promise.reject(new Error('connect ECONNREFUSED'));
            }
            return Promise.resolve(isUpstreamAnswering);
          },
        }
      : {}),
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
    probes,
    errors,
    setUpstreamAnswering: (answers: boolean) => {
      isUpstreamAnswering = answers;
    },
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

  describe('probing the upstream while it waits out a long delay', () => {
    /** Sweeps deferred at 0, 2, 6 and 14 s: the next retry waits 16 s, until 30 s. */
    async function intoTheSixteenSecondDelay(h: ReturnType<typeof harness>) {
      h.deferOnNextRuns(1, 1, 1, 1);
      h.schedule.start();
      await vi.advanceTimersByTimeAsync(14_000);
      expect(h.runs).toEqual([0, 2_000, 6_000, 14_000]);
    }

    it('sweeps at the first answer after an unanswered probe, not when the delay ends', async () => {
      const h = harness({ withProbe: true });
      await intoTheSixteenSecondDelay(h);
      // Probes at 16 and 18 s go unanswered; the upstream is back at 19 s.
      await vi.advanceTimersByTimeAsync(5_000);
      h.setUpstreamAnswering(true);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(h.runs).toEqual([0, 2_000, 6_000, 14_000, 20_000]);
      // That sweep sent everything: back to once an interval, and no more probes.
      const probesThen = h.probes.length;
      await vi.advanceTimersByTimeAsync(INTERVAL);
      expect(h.runs.at(-1)).toBe(20_000 + INTERVAL);
      expect(h.probes).toHaveLength(probesThen);
      h.schedule.stop();
    });

    it('counts a probe that throws as no answer', async () => {
      const h = harness({ withProbe: true, probeThrows: true });
      await intoTheSixteenSecondDelay(h);
      await vi.advanceTimersByTimeAsync(5_000);
      h.setUpstreamAnswering(true);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(h.runs).toEqual([0, 2_000, 6_000, 14_000, 20_000]);
      expect(h.errors).toEqual([]);
      h.schedule.stop();
    });

    it('probes every first-retry delay while the upstream stays silent, and stops when the retry is close', async () => {
      const h = harness({ withProbe: true });
      await intoTheSixteenSecondDelay(h);
      h.deferOnNextRuns(1);
      await vi.advanceTimersByTimeAsync(16_000);
      // Each delay longer than 2 s is probed every 2 s, but not in its last 2 s, where the
      // retry itself comes: the 4 s delay from 2 s, the 8 s one from 6 s, the 16 s one from 14 s.
      const from14s = [16_000, 18_000, 20_000, 22_000, 24_000, 26_000, 28_000];
      expect(h.probes).toEqual([4_000, 8_000, 10_000, 12_000, ...from14s]);
      expect(h.runs.at(-1)).toBe(30_000);
      h.schedule.stop();
    });

    it('leaves the delay as it is when the upstream answered every probe (it answers reads, not the submission)', async () => {
      const h = harness({ withProbe: true });
      h.setUpstreamAnswering(true);
      await intoTheSixteenSecondDelay(h);
      await vi.advanceTimersByTimeAsync(16_000);
      expect(h.runs).toEqual([0, 2_000, 6_000, 14_000, 30_000]);
      h.schedule.stop();
    });

    it('sweeps early at most once a delay, so a flapping upstream is not swept at every answer', async () => {
      const h = harness({ withProbe: true });
      await intoTheSixteenSecondDelay(h);
      // The early sweep at 18 s is deferred again: the next delay is 32 s, to 50 s.
      h.deferOnNextRuns(1);
      await vi.advanceTimersByTimeAsync(3_000);
      h.setUpstreamAnswering(true);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(h.runs).toEqual([0, 2_000, 6_000, 14_000, 18_000]);
      // It keeps answering, then not, then again: a new delay, a new early sweep after a miss.
      await vi.advanceTimersByTimeAsync(10_000);
      expect(h.runs).toHaveLength(5);
      h.setUpstreamAnswering(false);
      await vi.advanceTimersByTimeAsync(2_000);
      h.setUpstreamAnswering(true);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(h.runs).toEqual([0, 2_000, 6_000, 14_000, 18_000, 32_000]);
      h.schedule.stop();
    });

    it('does not probe after stop, nor sweep when a probe answers late', async () => {
      const h = harness({ withProbe: true });
      await intoTheSixteenSecondDelay(h);
      await vi.advanceTimersByTimeAsync(2_000);
      h.schedule.stop();
      h.setUpstreamAnswering(true);
      const probesThen = h.probes.length;
      await vi.advanceTimersByTimeAsync(3 * INTERVAL);
      expect(h.probes).toHaveLength(probesThen);
      expect(h.runs).toEqual([0, 2_000, 6_000, 14_000]);
    });
  });
});
