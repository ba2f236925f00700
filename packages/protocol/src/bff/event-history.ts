import { z } from 'zod';
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
    before: z.coerce.number().int().positive().optional(),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(EVENT_HISTORY_LIMIT_MAX)
      .default(EVENT_HISTORY_LIMIT_DEFAULT),
    family: z
      .string()
      .regex(/^[a-z_]{1,32}$/)
      .optional(),
    type: z
      .string()
      .regex(/^[a-z_.]{1,64}$/)
      .optional(),
    q: z.string().trim().min(1).max(256).optional(),
  }),
);
export type EventHistoryQuery = z.infer<typeof EventHistoryQuerySchema>;

export const EventHistoryPageSchema = z.lazy(() =>
  z.object({
    items: z.array(RelayedEventSchema),
    /** Pass as `before` for the next (older) page; null when this page reached the oldest. */
    nextBefore: z.number().int().positive().nullable(),
    /**
     * A filtered page reads a bounded window of stored events (the filters match what no index
     * serves). True when this page stopped at the end of its window rather than at `limit`
     * matches: it may hold fewer items, none at all, and more matches may lie below `nextBefore`.
     * Absent from a BFF that read every stored event per page: false, as that meant.
     */
    isWindowEnd: z.boolean().default(false),
  }),
);
export type EventHistoryPage = z.infer<typeof EventHistoryPageSchema>;
