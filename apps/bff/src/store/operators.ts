import { z } from 'zod';
import type { Db } from './db';

export const ROLES = ['support', 'treasury', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const RoleSchema = z.enum(ROLES);

const ROLE_RANK: Record<Role, number> = { support: 1, treasury: 2, admin: 3 };

export function hasRole(actual: Role, required: Role): boolean {
  return ROLE_RANK[actual] >= ROLE_RANK[required];
}

export type Operator = { id: number; username: string; role: Role; passwordHash: string };

const OperatorRowSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  role: RoleSchema,
  password_hash: z.string(),
});

function toOperator(row: unknown): Operator | null {
  if (row === undefined) return null;
  const r = OperatorRowSchema.parse(row);
  return { id: r.id, username: r.username, role: r.role, passwordHash: r.password_hash };
}

export type OperatorStore = ReturnType<typeof createOperatorStore>;

export function createOperatorStore(db: Db, now: () => number = Date.now) {
  const byName = db.prepare(
    'SELECT id, username, role, password_hash FROM operators WHERE username = ?',
  );
  const byId = db.prepare('SELECT id, username, role, password_hash FROM operators WHERE id = ?');
  const insert = db.prepare(
    'INSERT INTO operators (username, role, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
  );
  const updatePassword = db.prepare(
    'UPDATE operators SET password_hash = ?, updated_at = ? WHERE username = ?',
  );
  const deleteSessions = db.prepare(
    'DELETE FROM sessions WHERE operator_id = (SELECT id FROM operators WHERE username = ?)',
  );
  const all = db.prepare(
    'SELECT id, username, role, password_hash FROM operators ORDER BY username',
  );

  return {
    findByUsername: (username: string) => toOperator(byName.get(username)),
    findById: (id: number) => toOperator(byId.get(id)),
    add(username: string, role: Role, passwordHash: string): Operator {
      const at = now();
      const result = insert.run(username, role, passwordHash, at, at);
      return { id: Number(result.lastInsertRowid), username, role, passwordHash };
    },
    /** Sets a new hash and ends every session of the operator. Returns false when unknown. */
    resetPassword: db.transaction((username: string, passwordHash: string): boolean => {
      const changed = updatePassword.run(passwordHash, now(), username).changes > 0;
      if (changed) deleteSessions.run(username);
      return changed;
    }),
    list: () =>
      all.all().map((row) => {
        const operator = toOperator(row);
        if (!operator) throw new Error('unreachable');
        return { id: operator.id, username: operator.username, role: operator.role };
      }),
  };
}

export const UsernameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{1,63}$/, 'must be 2-64 lowercase letters, digits, ".", "_" or "-"');
