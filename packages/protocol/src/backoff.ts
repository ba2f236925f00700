/**
 * Bounded exponential backoff with full jitter, the one definition every reconnecting or
 * retrying caller uses (the client's REST retries and event stream, the console's socket to the
 * BFF): the delay before retry n (1-based) is uniform in [0, min(cap, base * 2^(n-1))).
 */
export type BackoffOptions = { baseMs: number; capMs: number };

/** DESIGN.md: a WebSocket reconnects with full jitter, base 1 s, cap 30 s. */
export const WS_BACKOFF_DEFAULTS: BackoffOptions = { baseMs: 1_000, capMs: 30_000 };

export function fullJitterDelay(
  retryNumber: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  // Past 2^30 the ceiling is the cap anyway; the bound keeps 2 ** n finite for any count.
  const exponent = Math.min(Math.max(retryNumber - 1, 0), 30);
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}
