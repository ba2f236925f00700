/**
 * Login throttling on two keys. Per (username, client address): after FREE_FAILURES failures,
 * each further failure locks the pair for an exponentially growing time (1 s, 2 s, 4 s ...
 * 15 min). Per client address across every username (password spraying): the same after
 * ADDRESS_FREE_FAILURES failures. Nothing locks forever: every lock is at most MAX_LOCK_MS, and
 * a key without a failure for FORGET_AFTER_MS is forgotten. Bounded: at most MAX_ENTRIES keys
 * per table; the oldest is forgotten first.
 */
const FREE_FAILURES = 5;
/** Generous: several operators behind one office address mistype now and then. */
const ADDRESS_FREE_FAILURES = 20;
const BASE_LOCK_MS = 1_000;
const MAX_LOCK_MS = 15 * 60_000;
const MAX_ENTRIES = 10_000;
const FORGET_AFTER_MS = 60 * 60_000;

type Entry = { failures: number; lockedUntil: number; lastFailureAt: number };

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

function createTable(now: () => number, freeFailures: number) {
  const entries = new Map<string, Entry>();
  return {
    retryAfterMs(key: string): number {
      const entry = entries.get(key);
      if (!entry) return 0;
      const at = now();
      if (at - entry.lastFailureAt > FORGET_AFTER_MS) {
        entries.delete(key);
        return 0;
      }
      return Math.max(0, entry.lockedUntil - at);
    },
    recordFailure(key: string): void {
      const at = now();
      const entry = entries.get(key) ?? { failures: 0, lockedUntil: 0, lastFailureAt: at };
      if (at - entry.lastFailureAt > FORGET_AFTER_MS) entry.failures = 0;
      entry.failures += 1;
      entry.lastFailureAt = at;
      if (entry.failures >= freeFailures) {
        const exponent = Math.min(entry.failures - freeFailures, 20);
        entry.lockedUntil = at + Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** exponent);
      }
      entries.delete(key);
      entries.set(key, entry);
      if (entries.size > MAX_ENTRIES) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
    },
    forget(key: string): void {
      entries.delete(key);
    },
  };
}

export function createLoginThrottle(now: () => number = Date.now) {
  const pairs = createTable(now, FREE_FAILURES);
  const addresses = createTable(now, ADDRESS_FREE_FAILURES);
  const keyOf = (username: string, ip: string) => `${username.toLowerCase()}\u0000${ip}`;

  return {
    /** Milliseconds until this username may try again from this address; 0 when it may now. */
    retryAfterMs(username: string, ip: string): number {
      return Math.max(pairs.retryAfterMs(keyOf(username, ip)), addresses.retryAfterMs(ip));
    },
    recordFailure(username: string, ip: string): void {
      pairs.recordFailure(keyOf(username, ip));
      addresses.recordFailure(ip);
    },
    /**
     * Clears the pair only: one account an attacker knows must not reset the address's count
     * of guesses at the others.
     */
    recordSuccess(username: string, ip: string): void {
      pairs.forget(keyOf(username, ip));
    },
  };
}
