/**
 * Login throttling per (username, client address): after FREE_FAILURES failures, each further
 * failure locks the pair out for an exponentially growing time (1 s, 2 s, 4 s ... 15 min).
 * Bounded: at most MAX_ENTRIES pairs are tracked; the oldest is forgotten first.
 */
const FREE_FAILURES = 5;
const BASE_LOCK_MS = 1_000;
const MAX_LOCK_MS = 15 * 60_000;
const MAX_ENTRIES = 10_000;
const FORGET_AFTER_MS = 60 * 60_000;

type Entry = { failures: number; lockedUntil: number; lastFailureAt: number };

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

export function createLoginThrottle(now: () => number = Date.now) {
  const entries = new Map<string, Entry>();
  const keyOf = (username: string, ip: string) => `${username.toLowerCase()}\u0000${ip}`;

  return {
    /** Milliseconds until the pair may try again; 0 when it may try now. */
    retryAfterMs(username: string, ip: string): number {
      const entry = entries.get(keyOf(username, ip));
      if (!entry) return 0;
      const at = now();
      if (at - entry.lastFailureAt > FORGET_AFTER_MS) {
        entries.delete(keyOf(username, ip));
        return 0;
      }
      return Math.max(0, entry.lockedUntil - at);
    },
    recordFailure(username: string, ip: string): void {
      const key = keyOf(username, ip);
      const at = now();
      const entry = entries.get(key) ?? { failures: 0, lockedUntil: 0, lastFailureAt: at };
      entry.failures += 1;
      entry.lastFailureAt = at;
      if (entry.failures >= FREE_FAILURES) {
        const exponent = Math.min(entry.failures - FREE_FAILURES, 20);
        entry.lockedUntil = at + Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** exponent);
      }
      entries.delete(key);
      entries.set(key, entry);
      if (entries.size > MAX_ENTRIES) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
    },
    recordSuccess(username: string, ip: string): void {
      entries.delete(keyOf(username, ip));
    },
  };
}
