import type { BackoffOptions } from '@settlement/protocol';
import { abortError, onAbort, type CancelSignal } from './cancellation';

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

export function sleep(ms: number, signal?: CancelSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const timer = setTimeout(() => {
      stopListening?.();
      resolve();
    }, ms);
    const stopListening =
      signal &&
      onAbort(signal, () => {
        clearTimeout(timer);
        reject(abortError(signal));
      });
  });
}
