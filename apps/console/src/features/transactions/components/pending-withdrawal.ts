import { CreateTransactionRequestSchema } from '@settlement/protocol';
import type { CreateTransactionRequest } from '@settlement/protocol';
import {
  clearPendingOperation,
  loadPendingOperation,
  savePendingOperation,
} from '../../../lib/operation-id';
import type { PendingOperation } from '../../../lib/operation-id';

/**
 * The withdrawal in flight, kept in sessionStorage from the moment it is sent until its
 * outcome is known, so a reload resumes it under the same operation id.
 */
const SLOT = 'withdrawal';

export type PendingWithdrawal = PendingOperation<CreateTransactionRequest>;

export function loadPendingWithdrawal(): PendingWithdrawal | null {
  return loadPendingOperation(SLOT, (value) => {
    const parsed = CreateTransactionRequestSchema.safeParse(value);
    return parsed.success ? parsed.data : null;
  });
}

export function savePendingWithdrawal(
  operationId: string,
  request: CreateTransactionRequest,
): void {
  savePendingOperation(SLOT, { operationId, request, savedAt: new Date().toISOString() });
}

export function clearPendingWithdrawal(): void {
  clearPendingOperation(SLOT);
}
