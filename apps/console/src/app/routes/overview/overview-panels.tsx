import type { AssetTotal, MpcStatus, Overview } from '@settlement/protocol';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { memo } from 'react';
import { EmptyState } from '../../../components/ui/empty-state';
import { QueryView } from '../../../components/ui/query-view';
import { TableSkeleton } from '../../../components/ui/skeleton';
import { useOpenRequests } from '../../../features/governance/api/open-requests';
import { withdrawalRequestListQuery } from '../../../features/governance/api/withdrawal-requests';
import { committedPerAsset } from '../../../features/governance/model/open-requests';
import { recentTransactionsQuery } from '../../../features/transactions/api/list-transactions';
import { Holdings } from '../../../features/treasury/components/holdings';
import { InFlight } from '../../../features/treasury/components/in-flight';
import { RecentActivity } from '../../../features/treasury/components/recent-activity';
import { useLiveState } from '../../live-state';
import { HealthLines } from './health-lines';

/*
 * The overview's panels that read more than the overview itself, each subscribed to its own
 * reads. A query's answer re-renders what shows it, not the page with its seven reads and every
 * panel: each arrival is a render React cannot split (an external store's update is urgent),
 * and on a phone's start each of them was a task of its own.
 */

type DecimalsFor = (asset: string) => number | null;

/** How many transactions the overview's recent activity shows (and asks for). */
export const RECENT_SHOWN = 8;

/** Holdings, with what open requests (awaiting approval, or approved and unsent) take of them. */
export const OverviewHoldings = memo(function OverviewHoldings({
  totals,
  decimalsFor,
}: {
  totals: readonly AssetTotal[];
  decimalsFor: DecimalsFor;
}) {
  const { open, isError } = useOpenRequests();
  return (
    <Holdings
      totals={totals}
      decimalsFor={decimalsFor}
      openRequests={
        isError
          ? 'unreadable'
          : open
            ? { perAsset: committedPerAsset(open), isAtLeast: open.isAtLeast }
            : null
      }
    />
  );
});

/** Withdrawals in flight, and the requests not yet sent upstream beside them. */
export const OverviewInFlight = memo(function OverviewInFlight({
  inFlight,
  decimalsFor,
  now,
}: {
  inFlight: Overview['inFlight'];
  decimalsFor: DecimalsFor;
  now: number;
}) {
  const awaiting = useQuery(withdrawalRequestListQuery('AWAITING_APPROVAL'));
  // Approved but not yet sent upstream (retried through an outage): no transaction shows them.
  const approved = useQuery(withdrawalRequestListQuery('APPROVED'));
  return (
    <InFlight
      inFlight={inFlight}
      awaitingApproval={awaiting.data?.items.length ?? null}
      approvedUnsent={approved.data?.items.length ?? null}
      decimalsFor={decimalsFor}
      now={now}
    />
  );
});

/** Co-Signer, MPC and the event stream; the stream's state changes only this panel. */
export function OverviewHealth({ status }: { status: UseQueryResult<MpcStatus> }) {
  return <HealthLines status={status} live={useLiveState()} />;
}

/** The newest transactions. */
export const OverviewRecentActivity = memo(function OverviewRecentActivity({
  decimalsFor,
  now,
}: {
  decimalsFor: DecimalsFor;
  now: number;
}) {
  const transactions = useQuery(recentTransactionsQuery(RECENT_SHOWN));
  const recent = transactions.data?.items ?? [];
  return (
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
      {() => <RecentActivity transactions={recent} decimalsFor={decimalsFor} now={now} />}
    </QueryView>
  );
});
