export type SweepSchedule = {
  /** Sweeps now, then every interval (sooner while submissions are being deferred). */
  start(): void;
  stop(): void;
  /**
   * An approved request could not be sent (the upstream did not answer): sweep again soon,
   * after the first retry delay, doubling while it keeps failing, up to the interval.
   */
  resumeSoon(): void;
};

/**
 * When the withdrawal-request sweep runs. Every interval it expires overdue requests and
 * resumes approved ones; after a deferred submission it comes back within seconds instead, so
 * a withdrawal approved during an upstream outage goes out soon after the upstream is back,
 * not up to a whole interval later. One sweep at a time.
 */
export function createSweepSchedule(options: {
  sweep: () => Promise<void>;
  intervalMs: number;
  firstRetryMs: number;
  onError: (error: unknown) => void;
}): SweepSchedule {
  const { intervalMs, firstRetryMs } = options;
  let timer: NodeJS.Timeout | null = null;
  let dueAt = Infinity;
  let retryMs = firstRetryMs;
  let isStarted = false;
  let isRunning = false;
  let wasDeferred = false;

  const schedule = (delayMs: number) => {
    if (timer) clearTimeout(timer);
    dueAt = Date.now() + delayMs;
    timer = setTimeout(run, delayMs);
    timer.unref();
  };
  /** The next retry, and the one after it twice as late (never later than the interval). */
  const retryLater = () => {
    schedule(retryMs);
    retryMs = Math.min(retryMs * 2, intervalMs);
  };

  function run(): void {
    timer = null;
    dueAt = Infinity;
    isRunning = true;
    wasDeferred = false;
    options
      .sweep()
      .catch(options.onError)
      .finally(() => {
        isRunning = false;
        if (!isStarted) return;
        if (wasDeferred) {
          retryLater();
        } else {
          retryMs = firstRetryMs;
          schedule(intervalMs);
        }
      });
  }

  return {
    start() {
      if (isStarted) return;
      isStarted = true;
      run();
    },
    stop() {
      isStarted = false;
      if (timer) clearTimeout(timer);
      timer = null;
      dueAt = Infinity;
    },
    resumeSoon() {
      wasDeferred = true;
      // A sweep under way schedules the retry when it ends; else bring the next one forward.
      if (!isStarted || isRunning) return;
      if (dueAt - Date.now() > retryMs) retryLater();
    },
  };
}
