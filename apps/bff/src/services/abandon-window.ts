import type { RequestLogEntry } from '../store/logs';

/**
 * How long after it was signed a request may still be accepted upstream: the interface's
 * timestamp window (+-300 s) plus a minute for the offset between our clock and the service's.
 */
export const LATE_ARRIVAL_WINDOW_MS = 6 * 60_000;

/**
 * The earliest time at which giving up on an operation is safe, or null when it is safe now.
 * An attempt that got any answer is settled; one that got none (timeout, reset) may still be in
 * flight and be accepted until its signed timestamp leaves the window, so a reconciliation read
 * before then could miss a withdrawal that lands a moment later.
 */
export function abandonableAt(
  attempts: readonly Pick<RequestLogEntry, 'at' | 'status' | 'signedTimestamp'>[],
  now: number,
): number | null {
  let latest: number | null = null;
  for (const attempt of attempts) {
    if (attempt.status !== null) continue;
    const signedAt =
      attempt.signedTimestamp === null ? attempt.at : Number(attempt.signedTimestamp) * 1_000;
    const safeAt = Math.max(signedAt, attempt.at) + LATE_ARRIVAL_WINDOW_MS;
    if (latest === null || safeAt > latest) latest = safeAt;
  }
  return latest !== null && latest > now ? latest : null;
}
