import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Cancellation } from './cancellation';
import { createDeadlines } from './deadlines';

describe('attempt deadlines on one shared timer', () => {
  let clockMs = 0;
  const now = () => clockMs;
  const advance = async (ms: number) => {
    clockMs += ms;
    await vi.advanceTimersByTimeAsync(ms);
  };

  beforeEach(() => {
    vi.useFakeTimers();
    clockMs = 1_000;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('aborts with a TimeoutError at the deadline, never before', async () => {
    const deadlines = createDeadlines(50, now);
    const deadline = deadlines.arm(300);
    await advance(299);
    expect(deadline.signal.aborted).toBe(false);
    await advance(50);
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as DOMException).name).toBe('TimeoutError');
    expect(deadlines.size()).toBe(0);
  });

  it('counts a timed-out attempt once, though its caller clears it after the abort', async () => {
    const deadlines = createDeadlines(50, now);
    const timedOut = deadlines.arm(300);
    const live = deadlines.arm(10_000);
    await advance(350);
    expect(timedOut.signal.aborted).toBe(true);
    // The caller sees the abort and clears its deadline, as every attempt does when it ends.
    timedOut.clear();
    expect(deadlines.size()).toBe(1);
    live.clear();
    expect(deadlines.size()).toBe(0);
    // Nothing pending: no timer left to fire (a miscount kept a 1 ms timer firing forever).
    expect(vi.getTimerCount()).toBe(0);
    await advance(20_000);
    expect(live.signal.aborted).toBe(false);
  });

  it('still times out the next attempt after one timed out and was cleared', async () => {
    const deadlines = createDeadlines(50, now);
    const first = deadlines.arm(300);
    await advance(350);
    first.clear();
    // A lone attempt after it: the miscount above left it without a timer, so it never timed
    // out (a call to a hung upstream then waited as long as the upstream did).
    const next = deadlines.arm(300);
    await advance(350);
    expect(next.signal.aborted).toBe(true);
    expect(deadlines.size()).toBe(0);
  });

  it('arms one timer for many pending deadlines and none once all are cleared', async () => {
    const deadlines = createDeadlines(50, now);
    const armed = Array.from({ length: 100 }, (_, i) => deadlines.arm(10_000 + i));
    expect(vi.getTimerCount()).toBe(1);
    for (const deadline of armed) deadline.clear();
    expect(vi.getTimerCount()).toBe(0);
    await advance(20_000);
    expect(armed.some((d) => d.signal.aborted)).toBe(false);
  });

  it('an earlier deadline armed after a later one still fires on time', async () => {
    const deadlines = createDeadlines(50, now);
    const late = deadlines.arm(10_000);
    const early = deadlines.arm(200);
    await advance(260);
    expect(early.signal.aborted).toBe(true);
    expect(late.signal.aborted).toBe(false);
    await advance(10_000);
    expect(late.signal.aborted).toBe(true);
  });

  it("passes the caller's abort on at once, with its reason, and forgets the caller after clear", () => {
    const deadlines = createDeadlines(50, now);
    const caller = new AbortController();
    const deadline = deadlines.arm(10_000, caller.signal);
    const reason = new Error('browser left');
    caller.abort(reason);
    expect(deadline.signal.reason).toBe(reason);

    const gone = new AbortController();
    gone.abort(reason);
    expect(deadlines.arm(10_000, gone.signal).signal.reason).toBe(reason);

    const later = new AbortController();
    const cleared = deadlines.arm(10_000, later.signal);
    cleared.clear();
    later.abort(reason);
    expect(cleared.signal.aborted).toBe(false);
  });

  it("passes a Cancellation caller's abort on too, and stops listening to it once cleared", () => {
    const deadlines = createDeadlines(50, now);
    const caller = new Cancellation();
    const deadline = deadlines.arm(10_000, caller);
    expect(caller.listenerCount('abort')).toBe(1);
    deadline.clear();
    expect(caller.listenerCount('abort')).toBe(0);

    const live = deadlines.arm(10_000, caller);
    const reason = new Error('browser left');
    caller.abort(reason);
    expect(live.signal.reason).toBe(reason);
    live.clear();
    expect(deadlines.size()).toBe(0);
  });
});
