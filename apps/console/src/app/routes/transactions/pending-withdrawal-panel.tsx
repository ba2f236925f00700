import { TransactionSchema, parseErrorEnvelope } from '@settlement/protocol';
import type {
  CreateTransactionRequest,
  OperationAttempt,
  OperationState,
  Transaction,
} from '@settlement/protocol';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Amount } from '../../../components/ui/amount';
import { Button } from '../../../components/ui/button';
import { CopyableId } from '../../../components/ui/copy-button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { useAbandonOperationMutation } from '../../../features/transactions/api/abandon-operation';
import { operationStatusQuery } from '../../../features/transactions/api/operation-status';
import { isApiError } from '../../../lib/api-client';
import { useCatalog } from '../../use-catalog';

const HEADINGS: Partial<Record<OperationState, string>> = {
  failed: 'The withdrawal was not created',
  abandoned: 'Abandoned: the withdrawal was not created',
};

/** What is going on with an open outcome, in words (never the journal's raw state name). */
function openStateText(state: OperationState | undefined): string {
  if (state === 'pending') return 'It is being sent right now.';
  if (state === 'unknown') {
    return 'The service did not answer, so it is not yet known whether the withdrawal was created.';
  }
  return 'Asking the console server what happened to it.';
}

/**
 * An unknown outcome: the BFF does not yet know whether the withdrawal was created. This polls
 * its journal until it answers; a retry always reuses the same operation id, and Abandon lets
 * the BFF reconcile first, so a withdrawal that reached the service is shown, never dropped.
 */
export function PendingWithdrawalPanel({
  operationId,
  request,
  isSending,
  onRetry,
  onCreated,
  onFailed,
}: {
  operationId: string;
  request: CreateTransactionRequest;
  isSending: boolean;
  onRetry: () => void;
  onCreated: (transaction: Transaction) => void;
  /** Nothing was created (refused or abandoned): back to the form. */
  onFailed: () => void;
}) {
  const status = useQuery(operationStatusQuery(operationId));
  const abandon = useAbandonOperationMutation();
  const { decimalsFor } = useCatalog();
  const state = status.data?.state;
  const created = state === 'succeeded' ? TransactionSchema.safeParse(status.data?.response) : null;
  const isUnknownToBff = isApiError(status.error) && status.error.status === 404;
  const isBusy = isSending || abandon.isPending;

  useEffect(() => {
    if (created?.success) onCreated(created.data);
  }, [created?.success, created?.data, onCreated]);

  const failure = state === 'failed' ? parseErrorEnvelope(status.data?.response) : null;
  const attempts = status.data?.attempts ?? [];
  return (
    <section aria-labelledby="pending-heading" className="space-y-3 p-5">
      <h2 id="pending-heading" className="text-base font-semibold text-slate-900">
        {(state && HEADINGS[state]) ?? 'Checking whether it was created'}
      </h2>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">Operation id</dt>
        <dd>
          <CopyableId value={operationId} label="operation id" />
        </dd>
        <dt className="text-slate-600">Amount</dt>
        <dd>
          <Amount
            atomic={request.amountAtomic}
            decimals={decimalsFor(request.asset)}
            asset={request.asset}
          />
        </dd>
        <dt className="text-slate-600">To</dt>
        <dd className="font-mono text-xs break-all">{request.toAddress}</dd>
        {request.clientReference ? (
          <>
            <dt className="text-slate-600">Client reference</dt>
            <dd className="font-mono text-xs break-all">{request.clientReference}</dd>
          </>
        ) : null}
      </dl>
      {attempts.length > 0 ? <AttemptList attempts={attempts} /> : null}
      {state === 'failed' || state === 'abandoned' ? (
        <>
          <p className="text-sm text-slate-700">
            {state === 'abandoned'
              ? 'The service has no such withdrawal, and the console will never send this one again.'
              : failure
                ? `${failure.code}: ${failure.message}`
                : 'The service refused the request.'}{' '}
            Nothing was sent.
          </p>
          <Button variant="primary" onClick={onFailed}>
            Start a new withdrawal
          </Button>
        </>
      ) : isUnknownToBff ? (
        <>
          <p className="text-sm text-slate-700">
            The console server sent nothing under this operation id. Sending it now is safe: if the
            withdrawal policy already holds it for approval, that same request comes back, never a
            second one.
          </p>
          <Button variant="primary" onClick={onRetry} disabled={isSending}>
            {isSending ? 'Sending…' : 'Send it now (same operation id)'}
          </Button>
        </>
      ) : (
        <>
          <p role="status" className="flex items-center gap-2 text-sm text-slate-700">
            <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-amber-500" />
            {openStateText(state)} Do not start another withdrawal for the same payment.
          </p>
          {status.error ? <ErrorPanel error={status.error} title="The check failed" /> : null}
          {abandon.error ? (
            <ErrorPanel error={abandon.error} title="Nothing was abandoned" />
          ) : null}
          <p className="text-sm text-slate-600">
            Abandon asks the service first whether this withdrawal exists. If it does, it is shown
            and nothing is abandoned; if it does not, it is never sent and you can start a new one.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="primary" onClick={onRetry} disabled={isBusy}>
              {isSending ? 'Retrying…' : 'Retry safely (same operation id)'}
            </Button>
            <Button
              onClick={() => {
                abandon.mutate(operationId);
              }}
              disabled={isBusy || state === 'pending'}
            >
              {abandon.isPending ? 'Checking with the service…' : 'Abandon'}
            </Button>
          </div>
        </>
      )}
    </section>
  );
}

/** Every upstream call made for this withdrawal, with the request id support can look up. */
function AttemptList({ attempts }: { attempts: OperationAttempt[] }) {
  return (
    <div className="text-sm">
      <h3 className="font-medium text-slate-800">Calls to the service</h3>
      <ol aria-label="Calls to the service" className="mt-1 space-y-1">
        {attempts.map((attempt) => {
          const requestId = attempt.upstreamRequestId ?? attempt.requestId;
          const kind = attempt.operation.endsWith('.reconcile') ? 'Check' : 'Send';
          return (
            <li
              key={`${attempt.requestId}-${String(attempt.attempt)}`}
              className="flex flex-wrap items-center gap-x-2"
            >
              <span>
                {kind} attempt {attempt.attempt}:{' '}
                {attempt.status === null ? 'no answer' : `HTTP ${String(attempt.status)}`}
              </span>
              <span className="text-slate-600">request id</span>
              <CopyableId value={requestId} label="request id" />
            </li>
          );
        })}
      </ol>
    </div>
  );
}
