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
 * outcome is known, so a reload resumes it under the same operation id. One slot per operator:
 * another operator signing in to this tab never resumes (or sends) someone else's withdrawal.
 */
const slotOf = (username: string) => `withdrawal.${username}`;

export type PendingWithdrawal = PendingOperation<CreateTransactionRequest>;

export function loadPendingWithdrawal(username: string): PendingWithdrawal | null {
  return loadPendingOperation(slotOf(username), (value) => {
    const parsed = CreateTransactionRequestSchema.safeParse(value);
    return parsed.success ? parsed.data : null;
  });
}

export function savePendingWithdrawal(
  username: string,
  operationId: string,
  request: CreateTransactionRequest,
): void {
  savePendingOperation(slotOf(username), {
    operationId,
    request,
    savedAt: new Date().toISOString(),
  });
}

export function clearPendingWithdrawal(username: string): void {
  clearPendingOperation(slotOf(username));
}
