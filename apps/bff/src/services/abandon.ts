import { HttpError } from '../errors';
import type { JournalEntry } from '../store/journal';
import { abandonableAt } from './abandon-window';
import type { Services } from './services';
import { reconcileWithdrawal, recordFound } from './reconcile';

/**
 * Gives up on a withdrawal of unknown outcome, so the operator may start a new one, and only
 * when that is safe: the upstream is asked first (by clientReference) and a withdrawal it has
 * is never abandoned; it is journaled as created instead. The answer is the journal entry
 * after reconciliation. An abandoned operation is never sent again (the executor refuses it).
 */
export async function abandonWithdrawal(
  services: Services,
  input: { operator: string; operationId: string },
): Promise<JournalEntry> {
  const entry = await services.journal.get(input.operationId);
  if (!entry) throw new HttpError('RESOURCE_NOT_FOUND', 'No such operation.');
  if (entry.operation !== 'transactions.create') {
    throw new HttpError(
      'VALIDATION_ERROR',
      `Only a withdrawal can be abandoned; this operation is ${entry.operation}.`,
    );
  }
  // A definite outcome (or an earlier abandon) is the answer: there is nothing to give up.
  if (entry.state !== 'unknown' && entry.state !== 'pending') return entry;
  if (entry.state === 'pending') {
    throw new HttpError(
      'IDEMPOTENCY_CONFLICT',
      'This withdrawal is being sent right now. Wait for its outcome; nothing was abandoned.',
      [{ operationId: entry.operationId, state: entry.state }],
    );
  }

  const attempts = (await services.logs.findRequests(entry.operationId)).filter(
    (row) => row.operationId === entry.operationId,
  );
  const safeAt = abandonableAt(attempts, services.now());
  if (safeAt !== null) {
    const when = new Date(safeAt).toISOString();
    throw new HttpError(
      'IDEMPOTENCY_CONFLICT',
      `An attempt got no answer and could still reach the service until ${when}; nothing was abandoned. Abandon is possible after that, once the service confirms it has no such withdrawal.`,
      [{ operationId: entry.operationId, state: entry.state, abandonableAt: when }],
    );
  }

  const audit = async (outcome: string, upstreamRequestId: string | null, detail: string) => {
    await services.logs.audit({
      at: services.now(),
      operator: input.operator,
      action: 'transaction.create',
      outcome,
      operationId: entry.operationId,
      idempotencyKey: entry.idempotencyKey,
      upstreamRequestId,
      correlationId: entry.correlationId,
      resourceId: null,
      detail,
    });
  };
  const reference = entry.clientReference ?? '';
  const found = await reconcileWithdrawal(services, entry);
  switch (found.kind) {
    case 'found':
      await recordFound(
        services,
        entry,
        found,
        `abandon requested by ${input.operator}: found by clientReference ${reference}, so it was not abandoned`,
      );
      break;
    case 'absent': {
      const isAbandoned = await services.journal.abandon(entry.operationId, entry.updatedAt);
      await audit(
        isAbandoned ? 'abandoned' : 'abandon refused',
        found.requestId,
        isAbandoned
          ? `the service has no transaction with clientReference ${reference}; it will never be sent again`
          : 'the operation changed while it was reconciled (a retry or a reconciliation got there first)',
      );
      break;
    }
    case 'unanswered':
      await audit('abandon refused', null, 'the service did not answer the reconciliation read');
      throw new HttpError(
        'UPSTREAM_UNAVAILABLE',
        'The service could not be asked whether this withdrawal exists, so nothing was abandoned. Try again in a moment.',
        [{ operationId: entry.operationId, state: entry.state }],
      );
    case 'impossible':
      await audit('abandon refused', null, 'no key may read transactions to reconcile it');
      throw new HttpError(
        'FORBIDDEN',
        'No configured key may read transactions, so the console cannot check whether this withdrawal exists. Nothing was abandoned.',
      );
  }
  const after = await services.journal.get(entry.operationId);
  if (!after) throw new Error('journal row vanished');
  return after;
}
