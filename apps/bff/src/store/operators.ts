import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { RoleSchema, type Role } from '@settlement/protocol';
import type { Sql } from './sql';

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

const CountSchema = z.object({ n: z.number().int() });
const UserIdSchema = z.object({ webauthn_user_id: z.string().nullable() });

export type OperatorStore = {
  findByUsername(username: string): Promise<Operator | null>;
  findById(id: number): Promise<Operator | null>;
  /** `mustChangePassword`: a one-time password, replaced at the first sign-in. */
  add(
    username: string,
    role: Role,
    passwordHash: string,
    options?: { mustChangePassword?: boolean },
  ): Promise<Operator>;
  /** Sets a new hash and ends every session of the operator. Returns false when unknown. */
  resetPassword(
    username: string,
    passwordHash: string,
    options?: { mustChange?: boolean },
  ): Promise<boolean>;
  /** The operator's own change: the current session stays, the others end. */
  changeOwnPassword(
    operatorId: number,
    passwordHash: string,
    keepSessionHash: string,
  ): Promise<void>;
  /**
   * Role and disabled flag in one transaction that keeps an enabled admin: throws
   * LastAdminError (and changes nothing) when the change would leave none. Disabling ends
   * every session of the operator at once.
   */
  update(username: string, change: { role?: Role; disabled?: boolean }): Promise<void>;
  enabledAdmins(): Promise<number>;
  recordSignIn(operatorId: number): Promise<void>;
  /** A random WebAuthn user handle per operator, made once (never the username). */
  webauthnUserId(operatorId: number): Promise<string>;
  list(): Promise<Operator[]>;
};

const BY_NAME = `SELECT ${COLUMNS} FROM operators o WHERE o.username = ?`;
const BY_ID = `SELECT ${COLUMNS} FROM operators o WHERE o.id = ?`;
const UPDATE_PASSWORD =
  'UPDATE operators SET password_hash = ?, must_change_password = ?, updated_at = ? WHERE username = ?';
const DELETE_SESSIONS =
  'DELETE FROM sessions WHERE operator_id = (SELECT id FROM operators WHERE username = ?)';
const ENABLED_ADMINS = "SELECT COUNT(*) AS n FROM operators WHERE role = 'admin' AND disabled = 0";

export function createOperatorStore(db: Sql, now: () => number = Date.now): OperatorStore {
  const selectUserId = async (operatorId: number) => {
    const row = await db.get('SELECT webauthn_user_id FROM operators WHERE id = ?', [operatorId]);
    return row === undefined ? null : UserIdSchema.parse(row).webauthn_user_id;
  };
  return {
    findByUsername: async (username) => toOperator(await db.get(BY_NAME, [username])),
    findById: async (id) => toOperator(await db.get(BY_ID, [id])),
    async add(username, role, passwordHash, options = {}) {
      const at = now();
      await db.run(
        `INSERT INTO operators (username, role, password_hash, must_change_password, created_at,
           updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
        [username, role, passwordHash, options.mustChangePassword ? 1 : 0, at, at],
      );
      const added = toOperator(await db.get(BY_NAME, [username]));
      if (!added) throw new Error(`operator ${username} was not stored`);
      return added;
    },
    resetPassword: (username, passwordHash, options = {}) =>
      db.transaction(async (tx) => {
        const changed =
          (await tx.run(UPDATE_PASSWORD, [
            passwordHash,
            options.mustChange ? 1 : 0,
            now(),
            username,
          ])) > 0;
        if (changed) await tx.run(DELETE_SESSIONS, [username]);
        return changed;
      }),
    changeOwnPassword: (operatorId, passwordHash, keepSessionHash) =>
      db.transaction(async (tx) => {
        const operator = toOperator(await tx.get(BY_ID, [operatorId]));
        if (!operator) return;
        await tx.run(UPDATE_PASSWORD, [passwordHash, 0, now(), operator.username]);
        await tx.run('DELETE FROM sessions WHERE operator_id = ? AND id_hash != ?', [
          operatorId,
          keepSessionHash,
        ]);
      }),
    update: (username, change) =>
      db.transaction(async (tx) => {
        // Two replicas demoting the last two admins at once: the admin rows are locked first
        // (PostgreSQL), so the second change sees the first one's result.
        if (tx.dialect === 'postgres') {
          await tx.all("SELECT id FROM operators WHERE role = 'admin' ORDER BY id FOR UPDATE");
        }
        const at = now();
        if (change.role !== undefined) {
          await tx.run('UPDATE operators SET role = ?, updated_at = ? WHERE username = ?', [
            change.role,
            at,
            username,
          ]);
        }
        if (change.disabled !== undefined) {
          await tx.run('UPDATE operators SET disabled = ?, updated_at = ? WHERE username = ?', [
            change.disabled ? 1 : 0,
            at,
            username,
          ]);
          if (change.disabled) await tx.run(DELETE_SESSIONS, [username]);
        }
        if (CountSchema.parse(await tx.get(ENABLED_ADMINS)).n === 0) throw new LastAdminError();
      }),
    enabledAdmins: async () => CountSchema.parse(await db.get(ENABLED_ADMINS)).n,
    async recordSignIn(operatorId) {
      await db.run('UPDATE operators SET last_sign_in_at = ? WHERE id = ?', [now(), operatorId]);
    },
    async webauthnUserId(operatorId) {
      const existing = await selectUserId(operatorId);
      if (existing) return existing;
      await db.run(
        'UPDATE operators SET webauthn_user_id = ? WHERE id = ? AND webauthn_user_id IS NULL',
        [randomBytes(32).toString('base64url'), operatorId],
      );
      const stored = await selectUserId(operatorId);
      if (!stored) throw new Error('webauthn user id was not stored');
      return stored;
    },
    list: async () =>
      (await db.all(`SELECT ${COLUMNS} FROM operators o ORDER BY o.username`)).map((row) => {
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
