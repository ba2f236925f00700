import type { Transaction } from '@settlement/protocol';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { EmptyState } from '../../../components/ui/empty-state';
import { Panel } from '../../../components/ui/panel';
import { QueryView } from '../../../components/ui/query-view';
import { TableSkeleton } from '../../../components/ui/skeleton';
import { TransactionsTable } from '../../../features/transactions/components/transactions-table';

/** The "Transactions" panel of a detail page: the paged transactions of one account or wallet. */
export function RelatedTransactionsPanel({
  query,
  decimalsFor,
  emptyTitle,
  label,
}: {
  query: UseInfiniteQueryResult<InfiniteData<{ items: Transaction[] }>, unknown>;
  decimalsFor: (asset: string) => number | null;
  emptyTitle: string;
  label: string;
}) {
  const transactions = query.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Panel title="Transactions" className="mt-6">
      <QueryView
        query={query}
        skeleton={<TableSkeleton rows={3} label="Loading transactions" />}
        isEmpty={transactions.length === 0}
        empty={<EmptyState title={emptyTitle} />}
      >
        {() => (
          <TransactionsTable
            transactions={transactions}
            decimalsFor={decimalsFor}
            hasNextPage={query.hasNextPage}
            isFetchingNextPage={query.isFetchingNextPage}
            onLoadMore={() => void query.fetchNextPage()}
            label={label}
            maxHeight="28rem"
          />
        )}
      </QueryView>
    </Panel>
  );
}
