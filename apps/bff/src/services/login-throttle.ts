import { z } from 'zod';
import type { Sql } from '../store/sql';

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

const RowSchema = z.object({
  failures: z.number().int(),
  locked_until: z.number().int(),
  last_failure_at: z.number().int(),
});
const FailuresSchema = z.object({ failures: z.number().int() });
const CountSchema = z.object({ n: z.number().int() });

export type LoginThrottle = {
  /** Milliseconds until this username may try again from this address; 0 when it may now. */
  retryAfterMs(username: string, ip: string): Promise<number>;
  recordFailure(username: string, ip: string): Promise<void>;
  /**
   * Clears the pair only: one account an attacker knows must not reset the address's count
   * of guesses at the others.
   */
  recordSuccess(username: string, ip: string): Promise<void>;
};

type Scope = 'pair' | 'address';

/** Kept in the database: guessing against one replica counts on every replica. */
function createTable(db: Sql, now: () => number, scope: Scope, freeFailures: number) {
  return {
    async retryAfterMs(key: string): Promise<number> {
      const row = await db.get(
        'SELECT failures, locked_until, last_failure_at FROM login_failures WHERE scope = ? AND key = ?',
        [scope, key],
      );
      if (row === undefined) return 0;
      const entry = RowSchema.parse(row);
      const at = now();
      if (at - entry.last_failure_at > FORGET_AFTER_MS) return 0;
      return Math.max(0, entry.locked_until - at);
    },
    async recordFailure(key: string): Promise<void> {
      const at = now();
      // One atomic upsert counts the failure, so two replicas never lose one of two guesses.
      const counted = FailuresSchema.parse(
        await db.get(
          `INSERT INTO login_failures (scope, key, failures, locked_until, last_failure_at)
           VALUES (?, ?, 1, 0, ?)
           ON CONFLICT (scope, key) DO UPDATE SET
             failures = CASE WHEN excluded.last_failure_at - login_failures.last_failure_at > ?
               THEN 1 ELSE login_failures.failures + 1 END,
             last_failure_at = excluded.last_failure_at
           RETURNING failures`,
          [scope, key, at, FORGET_AFTER_MS],
        ),
      ).failures;
      if (counted >= freeFailures) {
        const exponent = Math.min(counted - freeFailures, 20);
        await db.run('UPDATE login_failures SET locked_until = ? WHERE scope = ? AND key = ?', [
          at + Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** exponent),
          scope,
          key,
        ]);
      }
      // Only a new key can push the table past its bound.
      if (counted > 1) return;
      const { n } = CountSchema.parse(
        await db.get('SELECT COUNT(*) AS n FROM login_failures WHERE scope = ?', [scope]),
      );
      if (n > MAX_ENTRIES) {
        // Bounded: the keys failed longest ago are forgotten first.
        await db.run(
          `DELETE FROM login_failures WHERE scope = ? AND key IN (SELECT key FROM login_failures
             WHERE scope = ? ORDER BY last_failure_at LIMIT ?)`,
          [scope, scope, n - MAX_ENTRIES],
        );
      }
    },
    async forget(key: string): Promise<void> {
      await db.run('DELETE FROM login_failures WHERE scope = ? AND key = ?', [scope, key]);
    },
  };
}

export function createLoginThrottle(db: Sql, now: () => number = Date.now): LoginThrottle {
  const pairs = createTable(db, now, 'pair', FREE_FAILURES);
  const addresses = createTable(db, now, 'address', ADDRESS_FREE_FAILURES);
  // JSON: any character of a username (a NUL too) stays text PostgreSQL can store.
  const keyOf = (username: string, ip: string) => JSON.stringify([username.toLowerCase(), ip]);

  return {
    async retryAfterMs(username, ip) {
      return Math.max(
        await pairs.retryAfterMs(keyOf(username, ip)),
        await addresses.retryAfterMs(ip),
      );
    },
    async recordFailure(username, ip) {
      await pairs.recordFailure(keyOf(username, ip));
      await addresses.recordFailure(ip);
    },
    recordSuccess: (username, ip) => pairs.forget(keyOf(username, ip)),
  };
}
