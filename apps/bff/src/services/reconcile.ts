import { TransactionSchema, listEnvelope, utf8Bytes, type Transaction } from '@settlement/protocol';
import type { JournalEntry } from '../store/journal';
import { recordAttempts, type Services } from './services';

/**
 * What the upstream says about a withdrawal of open outcome, asked by its clientReference (the
 * interface's advice: "before creating a new key, check the original transaction by id,
 * clientReference or the list").
 * - `found`: the upstream has it (the operation reached the upstream and was created);
 * - `absent`: a definite answer that no transaction carries the reference;
 * - `unanswered`: no definite answer (the read failed, or its body was not a list);
 * - `impossible`: nothing to ask by (not a withdrawal, no reference, or no reading key).
 */
export type Reconciliation =
  | {
      kind: 'found';
      transaction: Transaction;
      body: Uint8Array;
      requestId: string | null;
      correlationId: string | null;
    }
  | { kind: 'absent'; requestId: string | null }
  | { kind: 'unanswered' }
  | { kind: 'impossible' };

export async function reconcileWithdrawal(
  services: Services,
  entry: JournalEntry,
): Promise<Reconciliation> {
  if (entry.operation !== 'transactions.create' || entry.clientReference === null) {
    return { kind: 'impossible' };
  }
  const reader = services.upstream.clientFor('transactions:read');
  if (!reader) return { kind: 'impossible' };
  const target = `/api/v1/transactions?clientReference=${encodeURIComponent(entry.clientReference)}`;
  let response;
  try {
    response = await reader.client.send('GET', target, {
      onAttempt: recordAttempts(services, {
        operator: entry.operator,
        operation: 'transactions.reconcile',
        operationId: entry.operationId,
      }),
    });
  } catch {
    return { kind: 'unanswered' };
  }
  if (response.status !== 200) return { kind: 'unanswered' };
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(response.bodyBytes).toString('utf8'));
  } catch {
    return { kind: 'unanswered' };
  }
  // A body that is not a list proves nothing: only a parsed, empty answer means "absent".
  const list = listEnvelope(TransactionSchema).safeParse(json);
  if (!list.success) return { kind: 'unanswered' };
  const found = list.data.items.find((item) => item.clientReference === entry.clientReference);
  if (!found) return { kind: 'absent', requestId: response.requestId };
  return {
    kind: 'found',
    transaction: found,
    body: utf8Bytes(JSON.stringify(found)),
    requestId: response.requestId,
    correlationId: found.correlationId ?? response.correlationId,
  };
}

/** Journals a withdrawal the upstream turned out to have, and audits how it was found. */
export async function recordFound(
  services: Services,
  entry: JournalEntry,
  found: Extract<Reconciliation, { kind: 'found' }>,
  detail: string,
): Promise<void> {
  await services.journal.finish(entry.operationId, {
    state: 'succeeded',
    status: 201,
    response: found.body,
    upstreamRequestId: found.requestId,
    correlationId: found.correlationId,
  });
  await services.logs.audit({
    at: services.now(),
    operator: entry.operator,
    action: 'transaction.create',
    outcome: 'reconciled',
    operationId: entry.operationId,
    idempotencyKey: entry.idempotencyKey,
    upstreamRequestId: found.requestId,
    correlationId: found.correlationId,
    resourceId: found.transaction.id,
    detail,
  });
}
