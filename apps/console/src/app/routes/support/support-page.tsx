import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { QueryView } from '../../../components/ui/query-view';
import { TableSkeleton } from '../../../components/ui/skeleton';
import {
  cleanSupportQuery,
  supportSearchQuery,
} from '../../../features/support/api/support-search';
import { SupportOperations } from '../../../features/support/components/support-operations';
import {
  SupportActions,
  SupportEvents,
  SupportRequests,
} from '../../../features/support/components/support-sections';
import { WalletsTable } from '../../../features/wallets/components/wallets-table';
import { TransactionsTable } from '../../../features/transactions/components/transactions-table';
import { timelineHref } from '../../../lib/timeline-href';
import { IdLookupForm } from '../../id-lookup-form';
import { LookupHeading } from '../../lookup-heading';
import { useCatalog } from '../../use-catalog';

export function SupportPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const q = cleanSupportQuery(searchParams.get('q') ?? '');
  const query = useQuery(supportSearchQuery(q));
  const { decimalsFor } = useCatalog();

  return (
    <>
      <PageHeader
        title="Support"
        description="Paste a correlationId, requestId, transaction id, clientReference, tx hash, idempotency key or address."
        actions={
          q ? (
            <Link to={timelineHref(q)} className="text-sm font-medium text-indigo-700 underline">
              Timeline<span className="sr-only"> of {q}</span>
            </Link>
          ) : null
        }
      />
      <IdLookupForm
        key={q}
        initial={q}
        formLabel="Support look-up"
        fieldLabel="Look up"
        submitLabel="Search"
        onSubmit={(next) => {
          setSearchParams(next ? { q: next } : {}, { preventScrollReset: true });
        }}
      />
      {q === '' ? (
        <EmptyState title="Search for anything that identifies an operation">
          Every error in the console shows a request id with a link here.
        </EmptyState>
      ) : (
        <QueryView query={query} skeleton={<TableSkeleton label="Searching" />}>
          {(result) => (
            <div className="space-y-6">
              <LookupHeading
                lead="Results for"
                query={result.query}
                kinds={result.kinds}
                whenNone={<span>— nothing matched</span>}
              />
              <Panel title={`Transactions (${result.transactions.length})`}>
                {result.transactions.length === 0 ? (
                  <EmptyState title="No transaction matches" />
                ) : (
                  <TransactionsTable
                    transactions={result.transactions}
                    decimalsFor={decimalsFor}
                    hasNextPage={false}
                    isFetchingNextPage={false}
                    onLoadMore={() => undefined}
                    label="Matching transactions"
                    maxHeight="24rem"
                  />
                )}
              </Panel>
              {result.wallets.length > 0 ? (
                <Panel title={`Wallets (${result.wallets.length})`}>
                  <WalletsTable wallets={result.wallets} label="Matching wallets" />
                </Panel>
              ) : null}
              <Panel title={`Events (${result.events.length})`}>
                <SupportEvents events={result.events} decimalsFor={decimalsFor} />
              </Panel>
              <Panel title={`Upstream calls (${result.requests.length})`}>
                <SupportRequests requests={result.requests} />
              </Panel>
              <Panel title={`Operator actions (${result.actions.length})`}>
                <SupportActions actions={result.actions} />
              </Panel>
              <Panel title={`Journaled operations (${result.operations.length})`}>
                <SupportOperations operations={result.operations} />
              </Panel>
            </div>
          )}
        </QueryView>
      )}
    </>
  );
}
