import { z } from 'zod';
import { PolicyDocumentSchema, type Policy, type PolicyDocument } from '@settlement/protocol';
import type { Sql } from '../store/sql';

const RowSchema = z.object({
  version: z.number().int(),
  document: z.string(),
  created_by: z.string(),
  created_at: z.number().int(),
});

function toPolicy(row: unknown): Policy | null {
  if (row === undefined) return null;
  const r = RowSchema.parse(row);
  const doc = PolicyDocumentSchema.parse(JSON.parse(r.document));
  return {
    ...doc,
    version: r.version,
    createdBy: r.created_by,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

export type PolicyStore = {
  /** The policy in force, or null before the first version (everything is then blocked). */
  current(): Promise<Policy | null>;
  /** Newest first. */
  versions(limit?: number): Promise<Policy[]>;
  /** Stores a new version (the next number) with who stored it and when. */
  save(doc: PolicyDocument, operator: string): Promise<Policy>;
};

/** PostgreSQL: two replicas saving at once take turns for the next version number. */
const POLICY_WRITE_LOCK = 0x706f6c69;

/** Every version of the withdrawal policy, kept; the highest one is in force. */
export function createPolicyStore(db: Sql, now: () => number = Date.now): PolicyStore {
  return {
    current: async () =>
      toPolicy(await db.get('SELECT * FROM policy_versions ORDER BY version DESC LIMIT 1')),
    versions: async (limit = 50) =>
      (await db.all('SELECT * FROM policy_versions ORDER BY version DESC LIMIT ?', [limit])).map(
        (row) => {
          const policy = toPolicy(row);
          if (!policy) throw new Error('unreachable');
          return policy;
        },
      ),
    save: (doc, operator) =>
      db.transaction(async (tx) => {
        if (tx.dialect === 'postgres') {
          await tx.all('SELECT pg_advisory_xact_lock(?)', [POLICY_WRITE_LOCK]);
        }
        const policy = toPolicy(
          await tx.get(
            `INSERT INTO policy_versions (version, document, created_by, created_at)
             VALUES ((SELECT COALESCE(MAX(version), 0) + 1 FROM policy_versions), ?, ?, ?)
             RETURNING *`,
            [JSON.stringify(doc), operator, now()],
          ),
        );
        if (!policy) throw new Error('policy version vanished');
        return policy;
      }),
  };
}
