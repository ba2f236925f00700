import {
  CreateOperatorRequestSchema,
  UpdateOperatorRequestSchema,
  type OneTimePassword,
  type OperatorSummary,
} from '@settlement/protocol';
import { HttpError } from '../errors';
import type { Services } from '../services/services';
import { generatePassword, hashPassword } from '../services/passwords';
import { LastAdminError, type Operator } from '../store/operators';
import type { Session } from '../store/sessions';
import { auditSecurity } from './audit';

function toSummary(operator: Operator): OperatorSummary {
  return {
    username: operator.username,
    role: operator.role,
    isDisabled: operator.isDisabled,
    mustChangePassword: operator.mustChangePassword,
    passkeys: operator.passkeys,
    createdAt: new Date(operator.createdAt).toISOString(),
    lastSignInAt:
      operator.lastSignInAt === null ? null : new Date(operator.lastSignInAt).toISOString(),
  };
}

export type OperatorService = ReturnType<typeof createOperatorService>;

/**
 * Operator management (admin): add with a one-time password, change role, disable, reset a
 * password. An enabled admin always remains; every change is audited. `onSessionsEnded`
 * closes the sockets of sessions that a change ended.
 */
export function createOperatorService(
  services: Services,
  onSessionsEnded: (sessionHashes: readonly string[]) => void,
) {
  const { operators, sessions } = services;

  async function find(username: string): Promise<Operator> {
    const operator = await operators.findByUsername(username);
    if (!operator) throw new HttpError('RESOURCE_NOT_FOUND', 'No such operator.');
    return operator;
  }

  async function endSessionsOf(username: string, change: () => Promise<void>): Promise<void> {
    const hashes = (await sessions.listOf(username)).map((listing) => listing.idHash);
    await change();
    onSessionsEnded(hashes);
  }

  return {
    list: async (): Promise<OperatorSummary[]> => (await operators.list()).map(toSummary),
    find,

    async create(actor: Session, body: unknown): Promise<OneTimePassword> {
      const parsed = CreateOperatorRequestSchema.safeParse(body);
      if (!parsed.success) {
        throw new HttpError(
          'VALIDATION_ERROR',
          `username ${parsed.error.issues[0]?.message ?? 'or role is not valid'}`,
        );
      }
      const { username, role } = parsed.data;
      if (await operators.findByUsername(username)) throw new HttpError('OPERATOR_EXISTS');
      const oneTimePassword = generatePassword();
      const operator = await operators.add(username, role, await hashPassword(oneTimePassword), {
        mustChangePassword: true,
      });
      await auditSecurity(services, {
        operator: actor.username,
        action: 'operator.create',
        outcome: 'success',
        resourceId: username,
        detail: `role ${role}`,
      });
      return { operator: toSummary(operator), oneTimePassword };
    },

    async update(actor: Session, username: string, body: unknown): Promise<OperatorSummary> {
      const parsed = UpdateOperatorRequestSchema.safeParse(body);
      if (!parsed.success) throw new HttpError('VALIDATION_ERROR', 'role or disabled is required.');
      const before = await find(username);
      const change = parsed.data;
      if (change.disabled === true && username === actor.username) {
        throw new HttpError('FORBIDDEN', 'You cannot disable yourself; ask another admin.');
      }
      const apply = async () => {
        try {
          await operators.update(username, change);
        } catch (error) {
          if (error instanceof LastAdminError) {
            await auditSecurity(services, {
              operator: actor.username,
              action: 'operator.update',
              outcome: 'refused-last-admin',
              resourceId: username,
            });
            throw new HttpError(
              'LAST_ADMIN_PROTECTED',
              username === actor.username
                ? 'You are the last enabled admin: make another admin first.'
                : undefined,
            );
          }
          throw error;
        }
      };
      if (change.disabled === true) await endSessionsOf(username, apply);
      else await apply();
      // A role changed: no read in this process goes on the row it kept (store/sessions.ts).
      sessions.forgetReused();
      const after = await find(username);
      const what = [
        change.role !== undefined && change.role !== before.role
          ? `role ${before.role} -> ${change.role}`
          : null,
        change.disabled !== undefined && change.disabled !== before.isDisabled
          ? change.disabled
            ? 'disabled'
            : 'enabled'
          : null,
      ].filter((part) => part !== null);
      await auditSecurity(services, {
        operator: actor.username,
        action: 'operator.update',
        outcome: 'success',
        resourceId: username,
        detail: what.length > 0 ? what.join(', ') : 'no change',
      });
      return toSummary(after);
    },

    async resetPassword(actor: Session, username: string): Promise<OneTimePassword> {
      await find(username);
      const oneTimePassword = generatePassword();
      const hash = await hashPassword(oneTimePassword);
      await endSessionsOf(username, async () => {
        await operators.resetPassword(username, hash, { mustChange: true });
      });
      await auditSecurity(services, {
        operator: actor.username,
        action: 'operator.reset-password',
        outcome: 'success',
        resourceId: username,
      });
      return { operator: toSummary(await find(username)), oneTimePassword };
    },
  };
}
