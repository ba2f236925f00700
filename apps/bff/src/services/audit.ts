import type { AuditAction } from '../store/logs';
import type { OperationName } from './operations';

const ACTIONS: Partial<Record<OperationName, AuditAction>> = {
  'accounts.create': 'account.create',
  'wallets.create': 'wallet.create',
  'transactions.create': 'transaction.create',
  'mpc.initialize': 'mpc.initialize',
};

export function auditAction(operation: OperationName): AuditAction | null {
  return ACTIONS[operation] ?? null;
}

/** The created resource's id from a JSON response body (`id`, else `keyId`), if any. */
export function resourceIdOf(bytes: Uint8Array | null): string | null {
  if (!bytes || bytes.length === 0) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
    if (typeof value !== 'object' || value === null) return null;
    const record = value as Record<string, unknown>;
    for (const key of ['id', 'keyId']) {
      const id = record[key];
      if (typeof id === 'string') return id;
    }
    return null;
  } catch {
    return null;
  }
}
