import type { BackoffOptions } from '@settlement/protocol';

/** REST retries back off with the protocol's `fullJitterDelay`, under these bounds. */
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
