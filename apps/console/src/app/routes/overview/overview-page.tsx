import { usePrefetchQuery, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { PendingNotice } from '../../../components/ui/query-view';
import { Skeleton } from '../../../components/ui/skeleton';
import { withdrawalRequestListQuery } from '../../../features/governance/api/withdrawal-requests';
import { mpcStatusQuery } from '../../../features/mpc/api/mpc-status';
import { recentTransactionsQuery } from '../../../features/transactions/api/list-transactions';
import { overviewQuery } from '../../../features/treasury/api/overview';
import { WalletBalancesList } from '../../../features/treasury/components/wallet-balances-list';
import { useSession } from '../../shell/session-context';
import { useCatalog } from '../../use-catalog';
import {
  OverviewHealth,
  OverviewHoldings,
  OverviewInFlight,
  OverviewRecentActivity,
  RECENT_SHOWN,
} from './overview-panels';

const WALLETS_SHOWN = 8;

/**
 * Until the overview, the MPC status and the catalog are read, one placeholder stands for all
 * panels: they then appear together, so no panel grows under another (layout shift) and no
 * amount is first shown in atomic units.
 */
function OverviewSkeleton() {
  return (
    <div
      role="status"
      aria-label="Loading the overview"
      className="grid gap-4 lg:grid-cols-3 lg:gap-6"
    >
      <Skeleton className="h-40 lg:col-span-2" />
      <Skeleton className="h-40" />
      <Skeleton className="h-32" />
      <Skeleton className="h-32 lg:col-span-2" />
    </div>
  );
}

/** The panels the same failed overview read feeds: its error is shown once, under Holdings. */
function NotRead() {
  return (
    <p className="p-4 text-sm text-slate-600">
      Not shown: the overview could not be read (see Holdings).
    </p>
  );
}

export function OverviewPage() {
  const { session, permissions } = useSession();
  const overview = useQuery(overviewQuery());
  const status = useQuery(mpcStatusQuery());
  const { decimalsFor, query: catalog } = useCatalog();
  // The panels' own reads, asked for now, beside the overview's: each panel subscribes to its
  // own once it shows (overview-panels), so their answers re-render the panel, not the page.
  usePrefetchQuery(withdrawalRequestListQuery('AWAITING_APPROVAL'));
  usePrefetchQuery(withdrawalRequestListQuery('APPROVED'));
  usePrefetchQuery(recentTransactionsQuery(RECENT_SHOWN));
  // Ages are measured from when the data arrived, so a re-render never shifts them by itself.
  const [now] = useState(() => Date.now());
  // The panels replace the placeholder in a deferred (transition) render, which React splits
  // into ~5 ms slices: rendered in the query update itself it was one long task right as the
  // data arrived (Lighthouse TBT, 4x CPU). Back to the placeholder at once (data gone), and
  // with the data already cached the panels render on mount.
  const isReadingNow = overview.isPending || status.isPending || catalog.isPending;
  const isReading = useDeferredValue(isReadingNow) || isReadingNow;

  return (
    <>
      <PageHeader
        title="Overview"
        description={`What the organization holds and what is in flight. Signed in as ${session.operator.username} (${session.operator.role}).`}
        actions={
          permissions.canCreateWithdrawal ? (
            <Link to="/transactions/new" className={buttonClass('primary')}>
              New withdrawal
            </Link>
          ) : null
        }
      />
      {isReading ? (
        <>
          {/* Above the placeholder: on a phone, below it is out of sight. */}
          <PendingNotice
            query={[overview, status, catalog].find((q) => q.isPending) ?? overview}
            className="pb-3"
          />
          <OverviewSkeleton />
        </>
      ) : (
        <>
          <div className="grid gap-4 lg:grid-cols-3 lg:gap-6">
            <Panel title="Holdings" className="lg:col-span-2">
              {overview.isError ? (
                <div className="p-4">
                  <ErrorPanel
                    title="The overview could not be read"
                    error={overview.error}
                    onRetry={() => void overview.refetch()}
                  />
                </div>
              ) : overview.data.totals.length === 0 && overview.data.unreadWallets === 0 ? (
                <EmptyState title="Nothing held yet">
                  Balances appear here once a wallet receives a deposit.
                </EmptyState>
              ) : (
                <>
                  <OverviewHoldings totals={overview.data.totals} decimalsFor={decimalsFor} />
                  {overview.data.isPartial || overview.data.unreadWallets > 0 ? (
                    <p role="note" className="px-4 pb-4 text-xs text-amber-900">
                      {overview.data.isPartial ? 'Totals cover the first 1,000 wallets only. ' : ''}
                      {overview.data.unreadWallets > 0
                        ? `${overview.data.unreadWallets} wallet(s) could not be read and are not counted.`
                        : ''}
                    </p>
                  ) : null}
                </>
              )}
            </Panel>
            <Panel title="In flight">
              {overview.isError ? (
                <NotRead />
              ) : (
                <OverviewInFlight
                  inFlight={overview.data.inFlight}
                  decimalsFor={decimalsFor}
                  now={now}
                />
              )}
            </Panel>
            <Panel title="Health">
              <OverviewHealth status={status} />
            </Panel>
            <Panel
              title="Wallets"
              className="lg:col-span-2"
              actions={
                <Link to="/wallets" className="text-sm font-medium text-indigo-700 underline">
                  All wallets
                </Link>
              }
            >
              {overview.isError ? (
                <NotRead />
              ) : overview.data.wallets.length === 0 ? (
                <EmptyState title="No wallets yet">
                  Create one from an{' '}
                  <Link to="/accounts" className="font-medium text-indigo-700 underline">
                    account
                  </Link>
                  .
                </EmptyState>
              ) : (
                <WalletBalancesList
                  wallets={overview.data.wallets.slice(0, WALLETS_SHOWN)}
                  decimalsFor={decimalsFor}
                />
              )}
            </Panel>
          </div>
          <Panel
            title="Recent activity"
            className="mt-4 lg:mt-6"
            actions={
              <Link to="/transactions" className="text-sm font-medium text-indigo-700 underline">
                All transactions
              </Link>
            }
          >
            <OverviewRecentActivity decimalsFor={decimalsFor} now={now} />
          </Panel>
        </>
      )}
    </>
  );
}
