/**
 * Operation ids: one per logical action, chosen when the form or dialog opens and kept across
 * retries and double clicks. Withdrawals also keep theirs in sessionStorage, so a reload of the
 * page resumes the same action instead of starting a second one.
 */

export function newOperationId(): string {
  return crypto.randomUUID();
}

export type PendingOperation<T> = { operationId: string; request: T; savedAt: string };

const PREFIX = 'settlement.pending-operation.';

export function loadPendingOperation<T>(
  slot: string,
  parse: (value: unknown) => T | null,
): PendingOperation<T> | null {
  try {
    const text = sessionStorage.getItem(PREFIX + slot);
    if (!text) return null;
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return null;
    const operationId: unknown = Reflect.get(value, 'operationId');
    const savedAt: unknown = Reflect.get(value, 'savedAt');
    const request = parse(Reflect.get(value, 'request'));
    if (typeof operationId !== 'string' || request === null) return null;
    return { operationId, request, savedAt: typeof savedAt === 'string' ? savedAt : '' };
  } catch {
    return null;
  }
}

export function savePendingOperation<T>(slot: string, operation: PendingOperation<T>): void {
  try {
    sessionStorage.setItem(PREFIX + slot, JSON.stringify(operation));
  } catch {
    // Storage full or disabled: the operation id still lives in memory for this page.
  }
}

export function clearPendingOperation(slot: string): void {
  try {
    sessionStorage.removeItem(PREFIX + slot);
  } catch {
    // Nothing to clear.
  }
}
