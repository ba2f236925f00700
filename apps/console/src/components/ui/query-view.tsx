import type { UseInfiniteQueryResult, UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useIsSlow } from '../../lib/use-is-slow';
import { ErrorPanel, errorSummary } from './error-panel';

/**
 * The one way a panel shows a query: pending -> `skeleton`, error -> an ErrorPanel with
 * "Try again", success with `isEmpty` -> `empty`, otherwise `children(data)`. A read that is
 * slow, or failed and is being tried again, says so under its skeleton.
 */
export function QueryView<TData>({
  query,
  skeleton,
  isEmpty = false,
  empty = null,
  children,
}: {
  query: UseQueryResult<TData, unknown> | UseInfiniteQueryResult<TData, unknown>;
  skeleton: ReactNode;
  isEmpty?: boolean;
  empty?: ReactNode;
  children: (data: TData) => ReactNode;
}) {
  if (query.isPending) {
    return (
      <>
        {skeleton}
        <PendingNotice query={query} />
      </>
    );
  }
  if (query.isError) {
    return (
      <div className="p-4">
        <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />
      </div>
    );
  }
  return isEmpty ? empty : children(query.data);
}

/**
 * A polite live line for a read still pending: empty (and without height) until there is
 * something to say, so that screen readers announce it when it fills in. For the reads that
 * show their pending state themselves instead of through QueryView.
 */
export function PendingNotice({
  query: { failureCount, failureReason },
  className = 'px-4 py-2',
}: {
  query: Pick<UseQueryResult<unknown, unknown>, 'failureCount' | 'failureReason'>;
  /** Its spacing where it has something to say (inside a panel by default). */
  className?: string;
}) {
  const isSlow = useIsSlow(true);
  let text = '';
  if (failureCount > 0) {
    text = `Trying again. The last attempt said: ${errorSummary(failureReason).title}`;
  } else if (isSlow) {
    text = 'Still waiting for the settlement service…';
  }
  return (
    <p aria-live="polite" className={`${className} text-xs text-slate-600 empty:p-0`}>
      {text}
    </p>
  );
}
