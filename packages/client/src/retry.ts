/**
 * Bounded exponential backoff with full jitter: the delay before retry n (1-based) is a
 * uniform random value in [0, min(cap, base * 2^(n-1))].
 */
export type BackoffOptions = { baseMs: number; capMs: number };

export type RetryOptions = BackoffOptions & {
  /** Total attempts including the first one. */
  maxAttempts: number;
  /** Per-attempt timeout; the attempt counts as a network failure when it elapses. */
  timeoutMs: number;
};

/** DESIGN.md: full jitter, base 100 ms, cap 20 s, at most 3 attempts per action. */
export const REST_RETRY_DEFAULTS: RetryOptions = {
  baseMs: 100,
  capMs: 20_000,
  maxAttempts: 3,
  timeoutMs: 10_000,
};

/** DESIGN.md: WebSocket reconnect with full jitter, base 1 s, cap 30 s. */
export const WS_BACKOFF_DEFAULTS: BackoffOptions = { baseMs: 1_000, capMs: 30_000 };

export function fullJitterDelay(
  retryNumber: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(retryNumber - 1, 0), 30);
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
