import type { AppContext, BackgroundService } from '../context';
import { pruneIdempotencyRecords } from '../http/idempotency';

const EVERY_MS = 60_000;
/** Outbox retention: how far back `?resumeAfter=` can replay. */
export const EVENT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Keeps the time-bounded stores bounded: expired nonces, idempotency records past 24 h, and
 * outbox events past 7 days (each org's latest event stays, so its sequence never restarts).
 */
export function pruneExpired(ctx: AppContext): {
  nonces: number;
  idempotency: number;
  events: number;
} {
  const now = ctx.nowMs();
  const nonces = ctx.db.prepare('DELETE FROM nonces WHERE expires_at <= ?').run(now).changes;
  const events = ctx.db
    .prepare(
      `DELETE FROM events WHERE occurred_at < ?
         AND position NOT IN (SELECT MAX(position) FROM events GROUP BY org_id)`,
    )
    .run(new Date(now - EVENT_RETENTION_MS).toISOString()).changes;
  return { nonces, idempotency: pruneIdempotencyRecords(ctx.db, now), events };
}

export function housekeeping(ctx: AppContext): BackgroundService {
  let timer: NodeJS.Timeout | undefined;
  return {
    name: 'housekeeping',
    start: () => {
      timer = setInterval(() => {
        pruneExpired(ctx);
      }, EVERY_MS);
      timer.unref();
    },
    stop: () => {
      clearInterval(timer);
    },
  };
}
