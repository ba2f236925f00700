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
    isWindowEnd: boolean;
  }>;
};

/**
 * The most stored positions one filtered page reads. The filters compare the type and payload
 * text, which no index serves: a filter that matches little read every stored event in one
 * statement (~2 s at 1,000,000 on SQLite, whose driver holds the event loop meanwhile, so the
 * relay and every other request waited). A window keeps each page to a few milliseconds; the
 * console asks for the next window until it has a page of matches.
 */
const FILTERED_PAGE_WINDOW = 10_000;

const TopSchema = z.object({ top: z.number().int().nullable() });

/**
 * The stored events for the Events page, newest first (by local position), in pages. Reads the
 * relay's `events` table; writes stay with store/events.ts.
 */
export function createEventHistory(
  db: Sql,
  { window = FILTERED_PAGE_WINDOW }: { window?: number } = {},
): EventHistory {
  return {
    async page(input) {
      const { family, type, q } = input.filter;
      // Family and type compare on the type column; q matches ids, correlation id, or any text
      // in the payload (as the page's own search does on the live feed).
      const where: string[] = [];
      const params: SqlParam[] = [];
      const isFiltered = Boolean(family || type || q);
      // Filtered: the window [floor, top) below `before` (or below the newest event).
      let floor: number | null = null;
      if (isFiltered) {
        const top = input.before ?? (await highestBelow(db, null));
        if (top === null) return { items: [], nextBefore: null, isWindowEnd: false };
        floor = Math.max(0, top - window);
        where.push('seq >= ?');
        params.push(floor);
      }
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
      if (rows.length > input.limit && last) {
        return { items, nextBefore: last.seq, isWindowEnd: false };
      }
      if (floor === null) return { items, nextBefore: null, isWindowEnd: false };
      // The window held no more matches: continue just above the next older stored event.
      return { items, nextBefore: await highestBelow(db, floor), isWindowEnd: true };
    },
  };
}

/**
 * One past the newest stored position below `bound` (or of all, when null): a `before` that
 * starts a window at a stored event, across the gaps pruning leaves. Null when there is none.
 */
async function highestBelow(db: Sql, bound: number | null): Promise<number | null> {
  const row = await db.get(
    bound === null
      ? 'SELECT max(seq) AS top FROM events'
      : 'SELECT max(seq) AS top FROM events WHERE seq < ?',
    bound === null ? [] : [bound],
  );
  const { top } = TopSchema.parse(row ?? { top: null });
  return top === null ? null : top + 1;
}
