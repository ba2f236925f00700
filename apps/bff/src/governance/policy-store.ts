import { z } from 'zod';
import { PolicyDocumentSchema, type Policy, type PolicyDocument } from '@settlement/protocol';
import type { Db } from '../store/db';

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

export type PolicyStore = ReturnType<typeof createPolicyStore>;

/** Every version of the withdrawal policy, kept; the highest one is in force. */
export function createPolicyStore(db: Db, now: () => number = Date.now) {
  const latest = db.prepare('SELECT * FROM policy_versions ORDER BY version DESC LIMIT 1');
  const recent = db.prepare('SELECT * FROM policy_versions ORDER BY version DESC LIMIT ?');
  const insert = db.prepare(
    `INSERT INTO policy_versions (version, document, created_by, created_at)
     VALUES ((SELECT COALESCE(MAX(version), 0) + 1 FROM policy_versions), ?, ?, ?)`,
  );
  const byRowId = db.prepare('SELECT * FROM policy_versions WHERE rowid = ?');
  return {
    /** The policy in force, or null before the first version (everything is then blocked). */
    current: (): Policy | null => toPolicy(latest.get()),
    /** Newest first. */
    versions: (limit = 50): Policy[] =>
      recent.all(limit).map((row) => {
        const policy = toPolicy(row);
        if (!policy) throw new Error('unreachable');
        return policy;
      }),
    /** Stores a new version (the next number) with who stored it and when. */
    save(doc: PolicyDocument, operator: string): Policy {
      const result = insert.run(JSON.stringify(doc), operator, now());
      const policy = toPolicy(byRowId.get(result.lastInsertRowid));
      if (!policy) throw new Error('policy version vanished');
      return policy;
    },
  };
}
