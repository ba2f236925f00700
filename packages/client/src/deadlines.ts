import { Cancellation, onAbort, type CancelSignal } from './cancellation';

/** One armed attempt deadline: abort `signal` on time, or `clear` once the attempt is over. */
type Deadline = { signal: Cancellation; clear(): void };

export type Deadlines = {
  /**
   * A signal that aborts with a TimeoutError `timeoutMs` (rounded up to the tick) from now, or
   * with the caller's reason as soon as `callerSignal` aborts.
   */
  arm(timeoutMs: number, callerSignal?: CancelSignal): Deadline;
  /** Deadlines armed and not yet cleared or expired (tests). */
  size(): number;
};

function timeoutError(): Error {
  return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
}

/**
 * Per-attempt deadlines on one shared, coarse timer instead of `AbortSignal.timeout` (a timer,
 * a weak reference and a finalization registry per call) plus `AbortSignal.any` per attempt:
 * those two were ~2-3% of the BFF's busy time under load. Deadlines are kept in buckets of
 * `tickMs`; one unref'd timer, armed only while some deadline is pending, aborts each bucket's
 * attempts once it is due. An attempt therefore times out between `timeoutMs` and
 * `timeoutMs + tickMs` after it started, never earlier.
 */
export function createDeadlines(
  tickMs = 50,
  now: () => number = performance.now.bind(performance),
): Deadlines {
  const buckets = new Map<number, Set<Cancellation>>();
  let pending = 0;
  let timer: NodeJS.Timeout | null = null;
  let timerBucket = Infinity;

  const sweep = (): void => {
    timer = null;
    timerBucket = Infinity;
    const dueBucket = Math.floor(now() / tickMs);
    for (const [bucket, attempts] of buckets) {
      if (bucket > dueBucket) continue;
      buckets.delete(bucket);
      pending -= attempts.size;
      // Emptied before the aborts: an attempt's `clear` once it sees its abort must find itself
      // gone, or it is counted out twice (and a negative count kept a 1 ms timer firing).
      const due = [...attempts];
      attempts.clear();
      for (const attempt of due) attempt.abort(timeoutError());
    }
    schedule();
  };
  /** Keeps the one timer set for the earliest pending bucket (`earliest` when known). */
  const schedule = (earliest?: number): void => {
    if (pending === 0) return;
    let next = earliest ?? Infinity;
    if (earliest === undefined)
      for (const bucket of buckets.keys()) if (bucket < next) next = bucket;
    if (next === Infinity) return;
    if (timer !== null) {
      if (next >= timerBucket) return;
      clearTimeout(timer);
    }
    timerBucket = next;
    timer = setTimeout(sweep, Math.max(0, next * tickMs - now()));
    timer.unref();
  };

  return {
    arm(timeoutMs, callerSignal) {
      const attempt = new Cancellation();
      if (callerSignal?.aborted) {
        attempt.abort(callerSignal.reason);
        return { signal: attempt, clear: () => undefined };
      }
      // Rounded up: the bucket is swept at its end, so no attempt is cut before its timeout.
      const bucket = Math.ceil((now() + timeoutMs) / tickMs);
      let attempts = buckets.get(bucket);
      if (!attempts) {
        attempts = new Set();
        buckets.set(bucket, attempts);
      }
      attempts.add(attempt);
      pending += 1;
      const stopListening =
        callerSignal &&
        onAbort(callerSignal, () => {
          attempt.abort(callerSignal.reason);
        });
      const armedIn = attempts;
      schedule(bucket);
      return {
        signal: attempt,
        clear() {
          stopListening?.();
          if (armedIn.delete(attempt)) {
            pending -= 1;
            if (armedIn.size === 0) buckets.delete(bucket);
            if (pending === 0 && timer !== null) {
              clearTimeout(timer);
              timer = null;
              timerBucket = Infinity;
            }
          }
        },
      };
    },
    size: () => pending,
  };
}
