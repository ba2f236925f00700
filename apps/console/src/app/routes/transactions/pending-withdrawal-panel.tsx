import { TransactionSchema, parseErrorEnvelope } from '@settlement/protocol';
import type { CreateTransactionRequest, Transaction } from '@settlement/protocol';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Button } from '../../../components/ui/button';
import { CopyableId } from '../../../components/ui/copy-button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { operationStatusQuery } from '../../../features/transactions/api/operation-status';
import { isApiError } from '../../../lib/api-client';

/**
 * An unknown outcome: the BFF does not yet know whether the withdrawal was created. This
 * polls its journal until it answers; a retry always reuses the same operation id.
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
  onFailed: () => void;
}) {
  const status = useQuery(operationStatusQuery(operationId));
  const state = status.data?.state;
  const created = state === 'succeeded' ? TransactionSchema.safeParse(status.data?.response) : null;
  const isUnknownToBff = isApiError(status.error) && status.error.status === 404;

  useEffect(() => {
    if (created?.success) onCreated(created.data);
  }, [created?.success, created?.data, onCreated]);

  const failure = state === 'failed' ? parseErrorEnvelope(status.data?.response) : null;
  return (
    <section aria-labelledby="pending-heading" className="space-y-3 p-5">
      <h2 id="pending-heading" className="text-base font-semibold text-slate-900">
        {state === 'failed' ? 'The withdrawal was not created' : 'Checking whether it was created'}
      </h2>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">Operation id</dt>
        <dd>
          <CopyableId value={operationId} label="operation id" />
        </dd>
        <dt className="text-slate-600">Request</dt>
        <dd className="font-mono text-xs break-all">
          {request.amountAtomic} atomic {request.asset} to {request.toAddress}
        </dd>
      </dl>
      {state === 'failed' ? (
        <>
          <p className="text-sm text-slate-700">
            {failure ? `${failure.code}: ${failure.message}` : 'The service refused the request.'}{' '}
            Nothing was sent.
          </p>
          <Button variant="primary" onClick={onFailed}>
            Start a new withdrawal
          </Button>
        </>
      ) : isUnknownToBff ? (
        <>
          <p className="text-sm text-slate-700">
            The console server never received this request, so nothing was created. Sending it now
            is safe.
          </p>
          <Button variant="primary" onClick={onRetry} disabled={isSending}>
            {isSending ? 'Sending…' : 'Send it now (same operation id)'}
          </Button>
        </>
      ) : (
        <>
          <p role="status" className="flex items-center gap-2 text-sm text-slate-700">
            <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-amber-500" />
            Checking whether it was created… ({state ?? 'asking'}). Do not start another withdrawal
            for the same payment.
          </p>
          {status.error ? <ErrorPanel error={status.error} title="The check failed" /> : null}
          <Button onClick={onRetry} disabled={isSending}>
            {isSending ? 'Retrying…' : 'Retry safely (same operation id)'}
          </Button>
        </>
      )}
    </section>
  );
}
