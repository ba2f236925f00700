import { randomUUID } from 'node:crypto';
import { SAVED_VIEW_SUBJECTS } from '@settlement/protocol';
import { z } from 'zod';
import type { Db } from './db';

export type StoredSavedView = {
  id: string;
  name: string;
  subject: (typeof SAVED_VIEW_SUBJECTS)[number];
  filters: Record<string, string>;
  visibility: 'personal' | 'organization';
  owner: string;
  createdAt: number;
  updatedAt: number;
};

const RowSchema = z.object({
  id: z.string(),
  name: z.string(),
  subject: z.enum(SAVED_VIEW_SUBJECTS),
  filters: z.string(),
  visibility: z.enum(['personal', 'organization']),
  owner: z.string(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});

function toView(row: unknown): StoredSavedView {
  const r = RowSchema.parse(row);
  return {
    id: r.id,
    name: r.name,
    subject: r.subject,
    filters: z.record(z.string(), z.string()).parse(JSON.parse(r.filters)),
    visibility: r.visibility,
    owner: r.owner,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Bounds the table per operator (shared views count against their owner). */
export const SAVED_VIEWS_PER_OWNER_MAX = 100;

export type SavedViewStore = ReturnType<typeof createSavedViewStore>;

/** Saved filter sets (the `saved_views` table). Reads always say who is asking. */
export function createSavedViewStore(db: Db, newId: () => string = () => `sv_${randomUUID()}`) {
  const visible = db.prepare(
    `SELECT * FROM saved_views
     WHERE (owner = @operator OR visibility = 'organization')
       AND (@subject IS NULL OR subject = @subject)
     ORDER BY subject, lower(name), owner, id`,
  );
  const one = db.prepare('SELECT * FROM saved_views WHERE id = ?');
  const byName = db.prepare(
    'SELECT * FROM saved_views WHERE owner = @owner AND subject = @subject AND name = @name',
  );
  const countOwned = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM saved_views WHERE owner = ?',
  );
  const insert = db.prepare(
    `INSERT INTO saved_views (id, name, subject, filters, visibility, owner, created_at, updated_at)
     VALUES (@id, @name, @subject, @filters, @visibility, @owner, @createdAt, @updatedAt)`,
  );
  const update = db.prepare(
    `UPDATE saved_views SET filters = @filters, visibility = @visibility, updated_at = @updatedAt
     WHERE id = @id`,
  );
  const remove = db.prepare('DELETE FROM saved_views WHERE id = ?');

  return {
    /** The operator's own views and every view shared with the organization. */
    listVisible: (operator: string, subject: StoredSavedView['subject'] | null) =>
      visible.all({ operator, subject }).map(toView),
    /** A view the operator may see, or null (another's personal view is as good as absent). */
    getVisible: (id: string, operator: string): StoredSavedView | null => {
      const row = one.get(id);
      if (row === undefined) return null;
      const view = toView(row);
      return view.owner === operator || view.visibility === 'organization' ? view : null;
    },
    /**
     * Creates the view, or replaces filters and visibility of the owner's view of that name and
     * subject. `created` says which; null when the owner is at the limit and the name is new.
     */
    save: db.transaction(
      (
        input: Pick<StoredSavedView, 'name' | 'subject' | 'filters' | 'visibility' | 'owner'>,
        at: number,
      ): { view: StoredSavedView; created: boolean } | null => {
        const existing = byName.get({
          owner: input.owner,
          subject: input.subject,
          name: input.name,
        });
        const filters = JSON.stringify(input.filters);
        if (existing !== undefined) {
          const before = toView(existing);
          update.run({ id: before.id, filters, visibility: input.visibility, updatedAt: at });
          return {
            view: {
              ...before,
              filters: input.filters,
              visibility: input.visibility,
              updatedAt: at,
            },
            created: false,
          };
        }
        if ((countOwned.get(input.owner)?.n ?? 0) >= SAVED_VIEWS_PER_OWNER_MAX) return null;
        const view: StoredSavedView = { ...input, id: newId(), createdAt: at, updatedAt: at };
        insert.run({ ...view, filters });
        return { view, created: true };
      },
    ),
    remove: (id: string): boolean => remove.run(id).changes > 0,
  };
}
