import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ChainBadge } from '../../../components/ui/chain-badge';
import { CopyableId } from '../../../components/ui/copy-button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { JsonBlock } from '../../../components/ui/extra-fields';
import { DetailList, PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { PendingNotice } from '../../../components/ui/query-view';
import { Skeleton } from '../../../components/ui/skeleton';
import { transactionDetailQuery } from '../../../features/transactions/api/transaction-detail';
import { transactionTimelineQuery } from '../../../features/transactions/api/transaction-timeline';
import { FundsSummary } from '../../../features/transactions/components/funds-summary';
import { StatusTimeline } from '../../../features/transactions/components/status-timeline';
import { buildTimeline } from '../../../features/transactions/model/milestones';
import {
  BalanceEffects,
  NetworkFee,
  OnChainDetails,
} from '../../../features/transactions/components/transaction-sections';
import { TransactionSummary } from '../../../features/transactions/components/transaction-summary';
import { typeLabel } from '../../../features/transactions/components/transactions-table';
import { useCatalog } from '../../use-catalog';

function supportLink(value: string) {
  return (
    <Link
      to={`/support?q=${encodeURIComponent(value)}`}
      className="text-xs font-medium text-indigo-700 underline"
    >
      Support
    </Link>
  );
}

export function TransactionDetailPage() {
  const { transactionId = '' } = useParams();
  const query = useQuery(transactionDetailQuery(transactionId));
  const timeline = useQuery(transactionTimelineQuery(transactionId));
  const { decimalsFor } = useCatalog();
  const [isRawOpen, setIsRawOpen] = useState(false);

  if (query.isError) {
    return (
      <>
        <PageHeader title="Transaction" />
        <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />
      </>
    );
  }
  const tx = query.data;
  const requestIds = [
    ...new Set(
      (timeline.data?.requests ?? [])
        .flatMap((r) => [r.upstreamRequestId, r.requestId])
        .filter((id): id is string => Boolean(id)),
    ),
  ];

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link to="/transactions" className="text-indigo-700 hover:underline">
          Transactions
        </Link>
      </nav>
      <PageHeader
        title={
          tx
            ? `${typeLabel(tx).replace(/^./, (c) => c.toUpperCase())} of ${tx.asset}`
            : 'Transaction'
        }
        description={<CopyableId value={transactionId} label="transaction id" />}
        actions={
          tx ? (
            <span className="flex flex-wrap items-center gap-2">
              <ChainBadge chain={tx.chain} />
              <StatusBadge status={tx.status} />
            </span>
          ) : null
        }
      />
      {tx ? (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <div className="space-y-6">
            <Panel title="Summary">
              <TransactionSummary transaction={tx} decimalsFor={decimalsFor} />
            </Panel>
            <Panel title="Funds">
              <FundsSummary transaction={tx} decimalsFor={decimalsFor} />
            </Panel>
            <Panel title="On-chain details">
              <OnChainDetails transaction={tx} />
            </Panel>
            <Panel title="Balance effects">
              <BalanceEffects transaction={tx} decimalsFor={decimalsFor} />
            </Panel>
            <Panel title="Network fee">
              <NetworkFee transaction={tx} decimalsFor={decimalsFor} />
            </Panel>
          </div>
          <div className="space-y-6">
            <Panel title="Timeline">
              {timeline.isError ? (
                <div className="p-4">
                  <ErrorPanel
                    error={timeline.error}
                    title="Stored events could not be loaded"
                    onRetry={() => void timeline.refetch()}
                  />
                </div>
              ) : null}
              <StatusTimeline milestones={buildTimeline(tx, timeline.data?.events ?? [])} />
              {timeline.isPending ? (
                <>
                  <p role="status" className="px-4 pb-4 text-xs text-slate-600">
                    Loading stored events…
                  </p>
                  <PendingNotice query={timeline} />
                </>
              ) : null}
            </Panel>
            <Panel title="Support">
              <DetailList
                items={[
                  {
                    label: 'Correlation id',
                    value: tx.correlationId ? (
                      <span className="flex flex-wrap items-center gap-2">
                        <CopyableId value={tx.correlationId} label="correlation id" isShort />
                        {supportLink(tx.correlationId)}
                      </span>
                    ) : (
                      '—'
                    ),
                  },
                  {
                    label: 'Request ids',
                    value:
                      requestIds.length > 0 ? (
                        <ul className="space-y-1">
                          {requestIds.map((id) => (
                            <li key={id} className="flex flex-wrap items-center gap-2">
                              <CopyableId value={id} label="request id" isShort />
                              {supportLink(id)}
                            </li>
                          ))}
                        </ul>
                      ) : (
                        <span className="text-slate-600">None recorded by this console.</span>
                      ),
                  },
                ]}
              />
              <div className="border-t border-slate-100 px-4 py-3">
                <Link
                  to={`/support?q=${encodeURIComponent(tx.id)}`}
                  className="text-sm font-medium text-indigo-700 underline"
                >
                  Everything about this transaction in Support
                </Link>
              </div>
            </Panel>
            <Panel
              title="Raw JSON"
              actions={
                <Button
                  size="sm"
                  aria-expanded={isRawOpen}
                  aria-controls="raw-transaction"
                  onClick={() => {
                    setIsRawOpen((open) => !open);
                  }}
                >
                  {isRawOpen ? 'Hide raw JSON' : 'Show raw JSON'}
                </Button>
              }
            >
              <div id="raw-transaction" className="p-4">
                {isRawOpen ? (
                  <JsonBlock value={tx} label="Raw transaction JSON" />
                ) : (
                  <p className="text-sm text-slate-600">
                    The response exactly as the service returned it.
                  </p>
                )}
              </div>
            </Panel>
          </div>
        </div>
      ) : (
        <div className="space-y-3">
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-24 w-full" />
          <PendingNotice query={query} />
        </div>
      )}
    </>
  );
}
