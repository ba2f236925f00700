import type { AppContext, BackgroundService } from '../context';
import { pruneIdempotencyRecords } from '../http/idempotency';

const EVERY_MS = 60_000;

/** Keeps the time-bounded stores bounded: expired nonces and idempotency records. */
export function pruneExpired(ctx: AppContext): { nonces: number; idempotency: number } {
  const now = ctx.nowMs();
  const nonces = ctx.db.prepare('DELETE FROM nonces WHERE expires_at <= ?').run(now).changes;
  return { nonces, idempotency: pruneIdempotencyRecords(ctx.db, now) };
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
