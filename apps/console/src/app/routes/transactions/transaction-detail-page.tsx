import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Amount } from '../../../components/ui/amount';
import { StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { CopyableId } from '../../../components/ui/copy-button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { ExtraFields, JsonBlock } from '../../../components/ui/extra-fields';
import { DetailList, PageHeader, Panel } from '../../../components/ui/page-header';
import { Skeleton } from '../../../components/ui/skeleton';
import { Time } from '../../../components/ui/time';
import { transactionDetailQuery } from '../../../features/transactions/api/transaction-detail';
import { transactionTimelineQuery } from '../../../features/transactions/api/transaction-timeline';
import { StatusTimeline } from '../../../features/transactions/components/status-timeline';
import { buildTimeline } from '../../../features/transactions/components/timeline';
import {
  BalanceEffects,
  NetworkFee,
  OnChainDetails,
} from '../../../features/transactions/components/transaction-sections';
import { typeLabel } from '../../../features/transactions/components/transactions-table';
import { useCatalog } from '../../use-catalog';

const KNOWN = [
  'id',
  'walletId',
  'account',
  'type',
  'status',
  'chain',
  'asset',
  'amountAtomic',
  'displayAmount',
  'signedAmountAtomic',
  'direction',
  'balanceEffects',
  'onChainDetails',
  'networkFeeSummary',
  'clientReference',
  'billingReference',
  'toAddress',
  'fromAddress',
  'transactionGroupId',
  'counterpartTransactionId',
  'transferKind',
  'failureCode',
  'failureMessage',
  'correlationId',
  'createdAt',
  'updatedAt',
];

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
        actions={tx ? <StatusBadge status={tx.status} /> : null}
      />
      {tx ? (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <div className="space-y-6">
            <Panel title="Summary">
              <DetailList
                items={[
                  { label: 'Status', value: <StatusBadge status={tx.status} /> },
                  {
                    label: 'Amount',
                    value: (
                      <Amount
                        atomic={tx.amountAtomic}
                        decimals={decimalsFor(tx.asset)}
                        asset={tx.asset}
                        className="text-base font-semibold"
                      />
                    ),
                  },
                  {
                    label: 'Atomic amount',
                    value: (
                      <span className="font-mono text-xs tabular-nums">{tx.amountAtomic}</span>
                    ),
                  },
                  { label: 'Type', value: <span className="capitalize">{typeLabel(tx)}</span> },
                  ...(tx.direction ? [{ label: 'Direction', value: tx.direction }] : []),
                  ...(tx.transferKind
                    ? [
                        {
                          label: 'Transfer kind',
                          value: tx.transferKind.replaceAll('_', ' ').toLowerCase(),
                        },
                      ]
                    : []),
                  { label: 'Chain', value: <span className="font-mono text-xs">{tx.chain}</span> },
                  {
                    label: 'Account',
                    value: (
                      <Link
                        to={`/accounts/${encodeURIComponent(tx.account.id)}`}
                        className="text-indigo-700 hover:underline"
                      >
                        {tx.account.name ?? tx.account.id}
                      </Link>
                    ),
                  },
                  {
                    label: 'Wallet',
                    value: (
                      <Link
                        to={`/wallets/${encodeURIComponent(tx.walletId)}`}
                        className="font-mono text-xs text-indigo-700 hover:underline"
                      >
                        {tx.walletId}
                      </Link>
                    ),
                  },
                  ...(tx.fromAddress
                    ? [
                        {
                          label: 'From',
                          value: <CopyableId value={tx.fromAddress} label="from address" />,
                        },
                      ]
                    : []),
                  ...(tx.toAddress
                    ? [
                        {
                          label: 'To',
                          value: <CopyableId value={tx.toAddress} label="to address" />,
                        },
                      ]
                    : []),
                  ...(tx.clientReference
                    ? [
                        {
                          label: 'Client reference',
                          value: <CopyableId value={tx.clientReference} label="client reference" />,
                        },
                      ]
                    : []),
                  ...(tx.billingReference
                    ? [
                        {
                          label: 'Billing reference',
                          value: (
                            <CopyableId value={tx.billingReference} label="billing reference" />
                          ),
                        },
                      ]
                    : []),
                  ...(tx.counterpartTransactionId
                    ? [
                        {
                          label: 'Other leg',
                          value: (
                            <Link
                              to={`/transactions/${encodeURIComponent(tx.counterpartTransactionId)}`}
                              className="font-mono text-xs text-indigo-700 hover:underline"
                            >
                              {tx.counterpartTransactionId}
                            </Link>
                          ),
                        },
                      ]
                    : []),
                  ...(tx.failureCode || tx.failureMessage
                    ? [
                        {
                          label: 'Failure',
                          value: (
                            <span className="text-red-800">
                              <code className="font-mono text-xs">{tx.failureCode}</code>{' '}
                              {tx.failureMessage}
                            </span>
                          ),
                        },
                      ]
                    : []),
                  { label: 'Created', value: <Time value={tx.createdAt} /> },
                  { label: 'Updated', value: <Time value={tx.updatedAt} /> },
                ]}
              />
              <ExtraFields object={tx} known={KNOWN} />
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
                  <ErrorPanel error={timeline.error} title="Stored events could not be loaded" />
                </div>
              ) : null}
              <StatusTimeline milestones={buildTimeline(tx, timeline.data?.events ?? [])} />
              {timeline.isPending ? (
                <p role="status" className="px-4 pb-4 text-xs text-slate-600">
                  Loading stored events…
                </p>
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
        </div>
      )}
    </>
  );
}
