import { RelayedEventSchema, eventFamily, type RelayedEvent } from '@settlement/protocol';
import { z } from 'zod';
import type { Db } from './db';

const RowSchema = z.object({
  seq: z.number().int(),
  id: z.string(),
  type: z.string(),
  occurred_at: z.string(),
  correlation_id: z.string().nullable(),
  upstream_sequence: z.number().int().nullable(),
  org_id: z.string(),
  data: z.string(),
});

export type HistoryFilter = { family?: string; type?: string; q?: string };

/**
 * The stored events for the Events page, newest first (by local position), in pages. Reads the
 * relay's `events` table; writes stay with store/events.ts.
 */
export function createEventHistory(db: Db) {
  // Family and type compare on the type column; q matches ids, correlation id, or any text in
  // the payload (as the page's own search does on the live feed).
  const page = db.prepare(
    `SELECT seq, id, type, occurred_at, correlation_id, upstream_sequence, org_id, data
     FROM events
     WHERE (@before IS NULL OR seq < @before)
       AND (@type IS NULL OR type = @type)
       AND (@familyPrefix IS NULL OR type LIKE @familyPrefix ESCAPE '\\')
       AND (@q IS NULL OR id = @q OR correlation_id = @q OR instr(lower(type), lower(@q)) > 0
            OR instr(lower(data), lower(@q)) > 0)
     ORDER BY seq DESC LIMIT @limit`,
  );

  return {
    /** `limit` events below `before` (exclusive), newest first; `nextBefore` null at the oldest. */
    page(input: { before: number | null; limit: number; filter: HistoryFilter }): {
      items: RelayedEvent[];
      nextBefore: number | null;
    } {
      const { family, type, q } = input.filter;
      const rows = page
        .all({
          before: input.before,
          type: type ?? null,
          // A family name is [a-z_]; `_` is a LIKE wildcard, so it is escaped.
          familyPrefix: family ? `${family.replace(/_/g, '\\_')}.%` : null,
          q: q ?? null,
          limit: input.limit + 1,
        })
        .map((row) => RowSchema.parse(row));
      const shown = rows.slice(0, input.limit);
      const items = shown
        .map((r) =>
          RelayedEventSchema.parse({
            id: r.id,
            type: r.type,
            occurredAt: r.occurred_at,
            correlationId: r.correlation_id,
            orgId: r.org_id,
            sequence: r.upstream_sequence,
            data: JSON.parse(r.data) as unknown,
          }),
        )
        .filter((event) => !family || eventFamily(event.type) === family);
      const last = shown.at(-1);
      return { items, nextBefore: rows.length > input.limit && last ? last.seq : null };
    },
  };
}
