import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Badge, StatusBadge } from '../../../components/ui/badge';
import { buttonClass } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { PageHeader, Panel } from '../../../components/ui/page-header';
import { QueryView } from '../../../components/ui/query-view';
import { Skeleton, TableSkeleton } from '../../../components/ui/skeleton';
import { Time } from '../../../components/ui/time';
import { isFullyReady, mpcStatusQuery } from '../../../features/mpc/api/mpc-status';
import { transactionListQuery } from '../../../features/transactions/api/list-transactions';
import { TransactionsTable } from '../../../features/transactions/components/transactions-table';
import { useLiveState } from '../../live-updates';
import { useSession } from '../../shell/session-context';
import { useCatalog } from '../../use-catalog';

export function OverviewPage() {
  const { session, permissions } = useSession();
  const status = useQuery(mpcStatusQuery());
  const transactions = useInfiniteQuery(transactionListQuery({}));
  const { decimalsFor } = useCatalog();
  const { feed } = useLiveState();
  const recent = transactions.data?.pages[0]?.items ?? [];
  const isReady = isFullyReady(status.data);

  return (
    <>
      <PageHeader
        title="Overview"
        description={`Signed in as ${session.operator.username} (${session.operator.role}).`}
        actions={
          permissions.canCreateWithdrawal ? (
            <Link to="/transactions/new" className={buttonClass('primary')}>
              New withdrawal
            </Link>
          ) : null
        }
      />
      <div className="grid gap-6 md:grid-cols-3">
        <Panel title="MPC readiness">
          <div className="space-y-3 p-4 text-sm">
            {status.isPending ? (
              <Skeleton className="h-16 w-full" />
            ) : status.isError ? (
              <ErrorPanel error={status.error} />
            ) : (
              <>
                <p className="flex items-center gap-2">
                  Key{' '}
                  {status.data.keyStatus ? (
                    <StatusBadge status={status.data.keyStatus} />
                  ) : (
                    <Badge>Not initialized</Badge>
                  )}
                </p>
                <p className="flex items-center gap-2">
                  Co-Signer <StatusBadge status={status.data.coSigner.status} />
                </p>
                <p>
                  {isReady ? (
                    'Ready to create wallets and send withdrawals.'
                  ) : (
                    <Link to="/setup" className="font-medium text-indigo-700 underline">
                      Finish Setup
                    </Link>
                  )}
                </p>
              </>
            )}
          </div>
        </Panel>
        <Panel title="Live events">
          <div className="p-4 text-sm">
            {feed.length === 0 ? (
              <p className="text-slate-600">No events since you opened the console.</p>
            ) : (
              <ul className="space-y-1">
                {feed.slice(0, 4).map((event) => (
                  <li key={event.id} className="flex justify-between gap-2">
                    <span className="font-mono text-xs">{event.type}</span>
                    <Time value={event.occurredAt} />
                  </li>
                ))}
              </ul>
            )}
            <Link to="/events" className="mt-3 inline-block font-medium text-indigo-700 underline">
              Open the event feed
            </Link>
          </div>
        </Panel>
        <Panel title="Shortcuts">
          <ul className="space-y-2 p-4 text-sm">
            <li>
              <Link to="/accounts" className="font-medium text-indigo-700 underline">
                Accounts
              </Link>{' '}
              <span className="text-slate-600">— create and browse ledger accounts</span>
            </li>
            <li>
              <Link to="/wallets" className="font-medium text-indigo-700 underline">
                Wallets
              </Link>{' '}
              <span className="text-slate-600">— addresses and balances</span>
            </li>
            <li>
              <Link to="/support" className="font-medium text-indigo-700 underline">
                Support look-up
              </Link>{' '}
              <span className="text-slate-600">— find anything by id</span>
            </li>
          </ul>
        </Panel>
      </div>
      <Panel title="Recent transactions" className="mt-6">
        <QueryView
          query={transactions}
          skeleton={<TableSkeleton rows={4} label="Loading transactions" />}
          isEmpty={recent.length === 0}
          empty={
            <EmptyState title="No transactions yet">
              Deposits and withdrawals will show here.
            </EmptyState>
          }
        >
          {() => (
            <TransactionsTable
              transactions={recent.slice(0, 10)}
              decimalsFor={decimalsFor}
              hasNextPage={false}
              isFetchingNextPage={false}
              onLoadMore={() => undefined}
              label="Recent transactions"
              maxHeight="36rem"
            />
          )}
        </QueryView>
      </Panel>
    </>
  );
}
