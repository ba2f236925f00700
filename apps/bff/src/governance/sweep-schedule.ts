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
 *
 * While it waits out a long retry delay, `probe` asks the upstream every `firstRetryMs`
 * whether it answers (one cheap read, where a sweep resends every approved request). The first
 * answer after a probe that got none ends the outage: the sweep runs then, not when the
 * doubled delay ends. A probe that finds the upstream answering from the start changes nothing
 * (it answers reads but did not take the submission), and one early sweep per delay at most,
 * so a flapping upstream is swept at most twice as often as the delays alone would.
 */
export function createSweepSchedule(options: {
  sweep: () => Promise<void>;
  intervalMs: number;
  firstRetryMs: number;
  /** True when the upstream answers. */
  probe?: () => Promise<boolean>;
  onError: (error: unknown) => void;
}): SweepSchedule {
  const { intervalMs, firstRetryMs, probe } = options;
  let timer: NodeJS.Timeout | null = null;
  let dueAt = Infinity;
  let retryMs = firstRetryMs;
  let isStarted = false;
  let isRunning = false;
  let wasDeferred = false;
  /** Set for each retry delay: the probes of that delay may still bring the sweep forward. */
  let probing: { sawNoAnswer: boolean; timer: NodeJS.Timeout | null } | null = null;

  const schedule = (delayMs: number) => {
    if (timer) clearTimeout(timer);
    dueAt = Date.now() + delayMs;
    timer = setTimeout(run, delayMs);
    timer.unref();
  };
  const stopProbing = () => {
    if (probing?.timer) clearTimeout(probing.timer);
    probing = null;
  };
  const probeLater = (current: NonNullable<typeof probing>) => {
    current.timer = setTimeout(() => {
      current.timer = null;
      void probeOnce(current);
    }, firstRetryMs);
    current.timer.unref();
  };
  async function probeOnce(current: NonNullable<typeof probing>): Promise<void> {
    // A probe that throws counts as no answer: probing goes on, and nothing is left unhandled.
    const answers = probe ? await probe().catch(() => false) : false;
    // The sweep ran, was rescheduled or stopped meanwhile: this delay's probing is over.
    if (probing !== current) return;
    if (!answers) {
      current.sawNoAnswer = true;
    } else if (current.sawNoAnswer) {
      stopProbing();
      run();
      return;
    }
    // Not worth a probe when the retry itself comes sooner.
    if (dueAt - Date.now() > firstRetryMs) probeLater(current);
  }
  /** The next retry, and the one after it twice as late (never later than the interval). */
  const retryLater = () => {
    stopProbing();
    schedule(retryMs);
    if (probe && retryMs > firstRetryMs) {
      probing = { sawNoAnswer: false, timer: null };
      probeLater(probing);
    }
    retryMs = Math.min(retryMs * 2, intervalMs);
  };

  function run(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    dueAt = Infinity;
    stopProbing();
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
      stopProbing();
    },
    resumeSoon() {
      wasDeferred = true;
      // A sweep under way schedules the retry when it ends; else bring the next one forward.
      if (!isStarted || isRunning) return;
      if (dueAt - Date.now() > retryMs) retryLater();
    },
  };
}
