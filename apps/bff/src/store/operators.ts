import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { RoleSchema, type Role } from '@settlement/protocol';
import type { Db } from './db';

export type Operator = {
  id: number;
  username: string;
  role: Role;
  passwordHash: string;
  isDisabled: boolean;
  mustChangePassword: boolean;
  createdAt: number;
  lastSignInAt: number | null;
  passkeys: number;
};

const OperatorRowSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  role: RoleSchema,
  password_hash: z.string(),
  disabled: z.number().int(),
  must_change_password: z.number().int(),
  created_at: z.number().int(),
  last_sign_in_at: z.number().int().nullable(),
  passkeys: z.number().int(),
});

function toOperator(row: unknown): Operator | null {
  if (row === undefined) return null;
  const r = OperatorRowSchema.parse(row);
  return {
    id: r.id,
    username: r.username,
    role: r.role,
    passwordHash: r.password_hash,
    isDisabled: r.disabled === 1,
    mustChangePassword: r.must_change_password === 1,
    createdAt: r.created_at,
    lastSignInAt: r.last_sign_in_at,
    passkeys: r.passkeys,
  };
}

const COLUMNS = `o.id, o.username, o.role, o.password_hash, o.disabled, o.must_change_password,
  o.created_at, o.last_sign_in_at,
  (SELECT COUNT(*) FROM passkeys p WHERE p.operator_id = o.id) AS passkeys`;

export type OperatorStore = ReturnType<typeof createOperatorStore>;

export function createOperatorStore(db: Db, now: () => number = Date.now) {
  const byName = db.prepare(`SELECT ${COLUMNS} FROM operators o WHERE o.username = ?`);
  const byId = db.prepare(`SELECT ${COLUMNS} FROM operators o WHERE o.id = ?`);
  const all = db.prepare(`SELECT ${COLUMNS} FROM operators o ORDER BY o.username`);
  const insert = db.prepare(
    `INSERT INTO operators (username, role, password_hash, must_change_password, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const updatePassword = db.prepare(
    'UPDATE operators SET password_hash = ?, must_change_password = ?, updated_at = ? WHERE username = ?',
  );
  const updateRole = db.prepare('UPDATE operators SET role = ?, updated_at = ? WHERE username = ?');
  const updateDisabled = db.prepare(
    'UPDATE operators SET disabled = ?, updated_at = ? WHERE username = ?',
  );
  const signedIn = db.prepare('UPDATE operators SET last_sign_in_at = ? WHERE id = ?');
  const deleteSessions = db.prepare(
    'DELETE FROM sessions WHERE operator_id = (SELECT id FROM operators WHERE username = ?)',
  );
  const enabledAdmins = db.prepare<[], { n: number }>(
    "SELECT COUNT(*) AS n FROM operators WHERE role = 'admin' AND disabled = 0",
  );
  const selectUserId = db.prepare<[number], { webauthn_user_id: string | null }>(
    'SELECT webauthn_user_id FROM operators WHERE id = ?',
  );
  const setUserId = db.prepare(
    'UPDATE operators SET webauthn_user_id = ? WHERE id = ? AND webauthn_user_id IS NULL',
  );

  return {
    findByUsername: (username: string) => toOperator(byName.get(username)),
    findById: (id: number) => toOperator(byId.get(id)),
    /** `mustChangePassword`: a one-time password, replaced at the first sign-in. */
    add(
      username: string,
      role: Role,
      passwordHash: string,
      options: { mustChangePassword?: boolean } = {},
    ): Operator {
      const at = now();
      insert.run(username, role, passwordHash, options.mustChangePassword ? 1 : 0, at, at);
      const added = toOperator(byName.get(username));
      if (!added) throw new Error(`operator ${username} was not stored`);
      return added;
    },
    /** Sets a new hash and ends every session of the operator. Returns false when unknown. */
    resetPassword: db.transaction(
      (username: string, passwordHash: string, options: { mustChange?: boolean } = {}): boolean => {
        const changed =
          updatePassword.run(passwordHash, options.mustChange ? 1 : 0, now(), username).changes > 0;
        if (changed) deleteSessions.run(username);
        return changed;
      },
    ),
    /** The operator's own change: the current session stays, the others end. */
    changeOwnPassword: db.transaction(
      (operatorId: number, passwordHash: string, keepSessionHash: string): void => {
        const operator = toOperator(byId.get(operatorId));
        if (!operator) return;
        updatePassword.run(passwordHash, 0, now(), operator.username);
        db.prepare('DELETE FROM sessions WHERE operator_id = ? AND id_hash != ?').run(
          operatorId,
          keepSessionHash,
        );
      },
    ),
    /**
     * Role and disabled flag in one transaction that keeps an enabled admin: throws
     * LastAdminError (and changes nothing) when the change would leave none. Disabling ends
     * every session of the operator at once.
     */
    update: db.transaction(
      (username: string, change: { role?: Role; disabled?: boolean }): void => {
        const at = now();
        if (change.role !== undefined) updateRole.run(change.role, at, username);
        if (change.disabled !== undefined) {
          updateDisabled.run(change.disabled ? 1 : 0, at, username);
          if (change.disabled) deleteSessions.run(username);
        }
        if ((enabledAdmins.get()?.n ?? 0) === 0) throw new LastAdminError();
      },
    ),
    enabledAdmins: (): number => enabledAdmins.get()?.n ?? 0,
    recordSignIn(operatorId: number): void {
      signedIn.run(now(), operatorId);
    },
    /** A random WebAuthn user handle per operator, made once (never the username). */
    webauthnUserId(operatorId: number): string {
      const existing = selectUserId.get(operatorId)?.webauthn_user_id;
      if (existing) return existing;
      setUserId.run(randomBytes(32).toString('base64url'), operatorId);
      const stored = selectUserId.get(operatorId)?.webauthn_user_id;
      if (!stored) throw new Error('webauthn user id was not stored');
      return stored;
    },
    list: (): Operator[] =>
      all.all().map((row) => {
        const operator = toOperator(row);
        if (!operator) throw new Error('unreachable');
        return operator;
      }),
  };
}

/** Thrown inside `update` to roll back a change that would leave no enabled admin. */
export class LastAdminError extends Error {
  override readonly name = 'LastAdminError';
}
