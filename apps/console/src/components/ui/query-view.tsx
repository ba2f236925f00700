import type { UseInfiniteQueryResult, UseQueryResult } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { ErrorPanel, errorSummary } from './error-panel';

/**
 * How long a read may stay pending before the panel says it is still waiting. A hung upstream
 * keeps a read pending for a long time: the BFF makes three attempts of 10 s each before it
 * answers, and the console then retries a retryable answer twice.
 */
export const SLOW_READ_MS = 5_000;

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
}: {
  query: Pick<UseQueryResult<unknown, unknown>, 'failureCount' | 'failureReason'>;
}) {
  const [isSlow, setIsSlow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => {
      setIsSlow(true);
    }, SLOW_READ_MS);
    return () => {
      clearTimeout(timer);
    };
  }, []);
  let text = '';
  if (failureCount > 0) {
    text = `Trying again. The last attempt said: ${errorSummary(failureReason).title}`;
  } else if (isSlow) {
    text = 'Still waiting for the settlement service…';
  }
  return (
    <p aria-live="polite" className="px-4 py-2 text-xs text-slate-600 empty:p-0">
      {text}
    </p>
  );
}
