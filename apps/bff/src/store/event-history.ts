import { RelayedEventSchema, eventFamily, type RelayedEvent } from '@settlement/protocol';
import { z } from 'zod';
import { containsText, type Sql, type SqlParam } from './sql';

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

type HistoryFilter = { family?: string; type?: string; q?: string };

export type EventHistory = {
  /** `limit` events below `before` (exclusive), newest first; `nextBefore` null at the oldest. */
  page(input: { before: number | null; limit: number; filter: HistoryFilter }): Promise<{
    items: RelayedEvent[];
    nextBefore: number | null;
  }>;
};

/**
 * The stored events for the Events page, newest first (by local position), in pages. Reads the
 * relay's `events` table; writes stay with store/events.ts.
 */
export function createEventHistory(db: Sql): EventHistory {
  return {
    async page(input) {
      const { family, type, q } = input.filter;
      // Family and type compare on the type column; q matches ids, correlation id, or any text
      // in the payload (as the page's own search does on the live feed).
      const where: string[] = [];
      const params: SqlParam[] = [];
      if (input.before !== null) {
        where.push('seq < ?');
        params.push(input.before);
      }
      if (type) {
        where.push('type = ?');
        params.push(type);
      }
      if (family) {
        // A family name is [a-z_]; `_` is a LIKE wildcard, so it is escaped.
        where.push("type LIKE ? ESCAPE '\\'");
        params.push(`${family.replace(/_/g, '\\_')}.%`);
      }
      if (q) {
        where.push(
          `(id = ? OR correlation_id = ? OR ${containsText(db, 'type')} OR ${containsText(db, 'data')})`,
        );
        params.push(q, q, q, q);
      }
      const rows = (
        await db.all(
          `SELECT seq, id, type, occurred_at, correlation_id, upstream_sequence, org_id, data
           FROM events ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
           ORDER BY seq DESC LIMIT ?`,
          [...params, input.limit + 1],
        )
      ).map((row) => RowSchema.parse(row));
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
