import { z } from 'zod/mini';
import { RelayedEventSchema } from './relay';

/**
 * `GET /bff/events/history?before=&limit=&family=&type=&q=`: the BFF's stored events, newest
 * first, a page at a time (`before` = the `nextBefore` of the previous page). The Events page
 * shows these first and then continues with the live stream.
 */

export const EVENT_HISTORY_LIMIT_DEFAULT = 100;
export const EVENT_HISTORY_LIMIT_MAX = 500;

export const EventHistoryQuerySchema = z.lazy(() =>
  z.object({
    /** Local position (exclusive) to continue below; absent for the newest page. */
    before: z.optional(z.coerce.number().check(z.int(), z.positive())),
    limit: z._default(
      z.coerce.number().check(z.int(), z.gte(1), z.lte(EVENT_HISTORY_LIMIT_MAX)),
      EVENT_HISTORY_LIMIT_DEFAULT,
    ),
    family: z.optional(z.string().check(z.regex(/^[a-z_]{1,32}$/))),
    type: z.optional(z.string().check(z.regex(/^[a-z_.]{1,64}$/))),
    q: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(256))),
  }),
);
export type EventHistoryQuery = z.infer<typeof EventHistoryQuerySchema>;

export const EventHistoryPageSchema = z.lazy(() =>
  z.object({
    items: z.array(RelayedEventSchema),
    /** Pass as `before` for the next (older) page; null when this page reached the oldest. */
    nextBefore: z.nullable(z.int().check(z.positive())),
    /**
     * A filtered page reads a bounded window of stored events (the filters match what no index
     * serves). True when this page stopped at the end of its window rather than at `limit`
     * matches: it may hold fewer items, none at all, and more matches may lie below `nextBefore`.
     * Absent from a BFF that read every stored event per page: false, as that meant.
     */
    isWindowEnd: z._default(z.boolean(), false),
  }),
);
export type EventHistoryPage = z.infer<typeof EventHistoryPageSchema>;
