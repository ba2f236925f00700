import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ExportButton } from '../../../components/ui/export-button';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { QueryView } from '../../../components/ui/query-view';
import { TableSkeleton } from '../../../components/ui/skeleton';
import { TRANSACTION_FILTERS } from '../../../features/transactions/api/keys';
import { transactionListQuery } from '../../../features/transactions/api/list-transactions';
import { TransactionFilters } from '../../../features/transactions/components/transaction-filters';
import { TransactionsTable } from '../../../features/transactions/components/transactions-table';
import { roleReason } from '../../../features/session/permissions';
import { useUrlFilters } from '../../../lib/url-filters';
import { PageViewsMenu } from '../../shell/page-views-menu';
import { useSession } from '../../shell/session-context';
import { useCatalog } from '../../use-catalog';
import { useFilterSuggestions } from '../../use-filter-suggestions';

export function TransactionsPage() {
  const { permissions } = useSession();
  const [filters, setFilters] = useUrlFilters(TRANSACTION_FILTERS);
  const query = useInfiniteQuery(transactionListQuery(filters));
  const { assets, decimalsFor } = useCatalog();
  const suggestions = useFilterSuggestions();
  // Kept by identity between renders: the table's memoized rows and column width depend on it.
  const transactions = useMemo(
    () => query.data?.pages.flatMap((page) => page.items) ?? [],
    [query.data],
  );
  const hasFilters = Object.values(filters).some(Boolean);

  return (
    <>
      <PageHeader
        title="Transactions"
        description="Deposits, withdrawals and transfers. Statuses update live; filters stay in the address bar."
        actions={
          <>
            <PageViewsMenu
              subject="transactions"
              names={TRANSACTION_FILTERS}
              filters={filters}
              onApply={setFilters}
            />
            <ExportButton subject="transactions" filters={filters} />
            {permissions.canCreateWithdrawal ? (
              <Link to="/transactions/new" className={buttonClass('primary')}>
                New withdrawal
              </Link>
            ) : (
              <p className="text-sm text-slate-600">{roleReason('send withdrawals', 'treasury')}</p>
            )}
          </>
        }
      />
      <Panel>
        <TransactionFilters
          key={JSON.stringify(filters)}
          filters={filters}
          assets={assets.map((a) => a.asset)}
          suggestions={suggestions}
          onChange={setFilters}
        />
        <QueryView
          query={query}
          skeleton={<TableSkeleton label="Loading transactions" />}
          isEmpty={transactions.length === 0}
          empty={
            <EmptyState
              title={hasFilters ? 'No transaction matches these filters' : 'No transactions yet'}
            >
              {hasFilters
                ? 'Change or clear the filters.'
                : 'Deposits and withdrawals will show here.'}
            </EmptyState>
          }
        >
          {() => (
            <>
              <p className="px-4 pt-3 text-xs text-slate-600" aria-live="polite">
                {transactions.length.toLocaleString()} loaded
                {query.hasNextPage ? '; scroll for more' : ''}
              </p>
              <TransactionsTable
                transactions={transactions}
                decimalsFor={decimalsFor}
                hasNextPage={query.hasNextPage}
                isFetchingNextPage={query.isFetchingNextPage}
                onLoadMore={() => void query.fetchNextPage()}
              />
            </>
          )}
        </QueryView>
      </Panel>
    </>
  );
}
