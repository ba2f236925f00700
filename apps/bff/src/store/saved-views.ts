import { randomUUID } from 'node:crypto';
import { SAVED_VIEW_SUBJECTS } from '@settlement/protocol';
import { z } from 'zod';
import type { Sql } from './sql';

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

const CountSchema = z.object({ n: z.number().int() });

type SaveInput = Pick<StoredSavedView, 'name' | 'subject' | 'filters' | 'visibility' | 'owner'>;

export type SavedViewStore = {
  /** The operator's own views and every view shared with the organization. */
  listVisible(
    operator: string,
    subject: StoredSavedView['subject'] | null,
  ): Promise<StoredSavedView[]>;
  /** A view the operator may see, or null (another's personal view is as good as absent). */
  getVisible(id: string, operator: string): Promise<StoredSavedView | null>;
  /**
   * Creates the view, or replaces filters and visibility of the owner's view of that name and
   * subject. `created` says which; null when the owner is at the limit and the name is new.
   */
  save(input: SaveInput, at: number): Promise<{ view: StoredSavedView; created: boolean } | null>;
  remove(id: string): Promise<boolean>;
};

/** Saved filter sets (the `saved_views` table). Reads always say who is asking. */
export function createSavedViewStore(
  db: Sql,
  newId: () => string = () => `sv_${randomUUID()}`,
): SavedViewStore {
  return {
    listVisible: async (operator, subject) =>
      (
        await db.all(
          `SELECT * FROM saved_views
           WHERE (owner = ? OR visibility = 'organization')${subject ? ' AND subject = ?' : ''}
           ORDER BY subject, lower(name), owner, id`,
          subject ? [operator, subject] : [operator],
        )
      ).map(toView),
    getVisible: async (id, operator) => {
      const row = await db.get('SELECT * FROM saved_views WHERE id = ?', [id]);
      if (row === undefined) return null;
      const view = toView(row);
      return view.owner === operator || view.visibility === 'organization' ? view : null;
    },
    save: (input, at) =>
      db.transaction(async (tx) => {
        const existing = await tx.get(
          'SELECT * FROM saved_views WHERE owner = ? AND subject = ? AND name = ?',
          [input.owner, input.subject, input.name],
        );
        const filters = JSON.stringify(input.filters);
        if (existing !== undefined) {
          const before = toView(existing);
          await tx.run(
            'UPDATE saved_views SET filters = ?, visibility = ?, updated_at = ? WHERE id = ?',
            [filters, input.visibility, at, before.id],
          );
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
        const owned = CountSchema.parse(
          await tx.get('SELECT COUNT(*) AS n FROM saved_views WHERE owner = ?', [input.owner]),
        ).n;
        if (owned >= SAVED_VIEWS_PER_OWNER_MAX) return null;
        const view: StoredSavedView = { ...input, id: newId(), createdAt: at, updatedAt: at };
        await tx.run(
          `INSERT INTO saved_views (id, name, subject, filters, visibility, owner, created_at,
             updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          [view.id, view.name, view.subject, filters, view.visibility, view.owner, at, at],
        );
        return { view, created: true };
      }),
    remove: async (id) => (await db.run('DELETE FROM saved_views WHERE id = ?', [id])) > 0,
  };
}
