import type { UseInfiniteQueryResult, UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorPanel } from './error-panel';

/**
 * The one way a panel shows a query: pending -> `skeleton`, error -> an ErrorPanel with
 * "Try again", success with `isEmpty` -> `empty`, otherwise `children(data)`.
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
  if (query.isPending) return skeleton;
  if (query.isError) {
    return (
      <div className="p-4">
        <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />
      </div>
    );
  }
  return isEmpty ? empty : children(query.data);
}
