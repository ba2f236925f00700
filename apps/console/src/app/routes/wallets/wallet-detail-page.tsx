import { defaultWalletLabel } from '@settlement/protocol';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useContext } from 'react';
import { Link, useParams } from 'react-router';
import { StatusBadge } from '../../../components/ui/badge';
import { buttonClass } from '../../../components/ui/button';
import { ChainWithBadge } from '../../../components/ui/chain-badge';
import { CopyableId } from '../../../components/ui/copy-button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { ExtraFields } from '../../../components/ui/extra-fields';
import { DetailList, PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { QueryView } from '../../../components/ui/query-view';
import { Skeleton, TableSkeleton } from '../../../components/ui/skeleton';
import { Time } from '../../../components/ui/time';
import { WalletDirectoryContext, walletDisplayName } from '../../../components/ui/wallet-name';
import { WalletLabelEditor } from '../../../features/treasury/components/wallet-label-editor';
import { SimulateDepositForm } from '../../../features/sandbox/components/simulate-deposit-form';
import { useOpenRequests } from '../../../features/governance/api/open-requests';
import { committedFor } from '../../../features/governance/model/open-requests';
import { transactionListQuery } from '../../../features/transactions/api/list-transactions';
import { walletBalancesQuery } from '../../../features/wallets/api/wallet-balances';
import { walletDetailQuery } from '../../../features/wallets/api/wallet-detail';
import { BalancesTable } from '../../../features/wallets/components/balances-table';
import { WalletAddressCard } from '../../../features/wallets/components/wallet-address-card';
import { useSession } from '../../shell/session-context';
import { useCatalog } from '../../use-catalog';
import { RelatedTransactionsPanel } from '../transactions/related-transactions-panel';

const KNOWN = [
  'id',
  'chain',
  'accountId',
  'accountName',
  'address',
  'status',
  'createdAt',
  'updatedAt',
];

export function WalletDetailPage() {
  const { walletId = '' } = useParams();
  const { permissions } = useSession();
  const wallet = useQuery(walletDetailQuery(walletId));
  const balances = useQuery(walletBalancesQuery(walletId));
  const { open, isError: isOpenRequestsError } = useOpenRequests();
  const transactions = useInfiniteQuery(transactionListQuery({ walletId }));
  const { assets, decimalsFor } = useCatalog();
  const named = useContext(WalletDirectoryContext)(walletId);

  if (wallet.isError) {
    return (
      <>
        <PageHeader title="Wallet" />
        <ErrorPanel error={wallet.error} onRetry={() => void wallet.refetch()} />
      </>
    );
  }
  const data = wallet.data;
  const depositAssets = data
    ? assets
        .filter((a) => a.chains.some((c) => c.chain === data.chain && c.enabled))
        .map((a) => ({ asset: a.asset, decimals: a.decimals }))
    : [];
  const canSend = permissions.canCreateWithdrawal && data?.status === 'ACTIVE';

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link to="/wallets" className="text-indigo-700 hover:underline">
          Wallets
        </Link>
      </nav>
      <PageHeader
        title={named ? walletDisplayName(named) : data ? defaultWalletLabel(data) : 'Wallet'}
        description={<CopyableId value={walletId} label="wallet id" />}
        actions={
          canSend ? (
            <Link
              to={`/transactions/new?walletId=${encodeURIComponent(walletId)}`}
              className={buttonClass('primary')}
            >
              Send from this wallet
            </Link>
          ) : null
        }
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <Panel title="Address">
          {data ? <WalletAddressCard wallet={data} /> : <Skeleton className="m-4 h-36" />}
        </Panel>
        <Panel title="Details">
          {data ? (
            <>
              <DetailList
                items={[
                  { label: 'Status', value: <StatusBadge status={data.status} /> },
                  {
                    label: 'Account',
                    value: (
                      <Link
                        to={`/accounts/${encodeURIComponent(data.accountId)}`}
                        className="text-indigo-700 hover:underline"
                      >
                        {data.accountName}
                      </Link>
                    ),
                  },
                  {
                    label: 'Chain',
                    value: <ChainWithBadge chain={data.chain} />,
                  },
                  { label: 'Wallet id', value: <CopyableId value={data.id} label="wallet id" /> },
                  { label: 'Created', value: <Time value={data.createdAt} /> },
                  { label: 'Updated', value: <Time value={data.updatedAt} /> },
                ]}
              />
              <ExtraFields object={data} known={KNOWN} />
            </>
          ) : (
            <Skeleton className="m-4 h-36" />
          )}
        </Panel>
      </div>
      {permissions.canCreateWithdrawal && data ? (
        <Panel title="Label" className="mt-6">
          <WalletLabelEditor
            key={named?.label ?? ''}
            walletId={walletId}
            label={named?.label ?? null}
            defaultLabel={defaultWalletLabel(data)}
          />
        </Panel>
      ) : null}
      <Panel title="Balances" className="mt-6">
        <QueryView query={balances} skeleton={<TableSkeleton rows={2} label="Loading balances" />}>
          {(data) => (
            <BalancesTable
              balances={data}
              decimalsFor={decimalsFor}
              label="Wallet balances"
              openRequests={
                isOpenRequestsError
                  ? 'unreadable'
                  : open
                    ? {
                        committedFor: (asset) => committedFor(open, walletId, asset),
                        isAtLeast: open.isAtLeast,
                      }
                    : null
              }
            />
          )}
        </QueryView>
      </Panel>
      {permissions.canUseSandboxTools && data ? (
        <Panel title="Sandbox tools: simulate a deposit" className="mt-6 border-amber-300">
          <SimulateDepositForm walletId={data.id} assets={depositAssets} />
        </Panel>
      ) : null}
      <RelatedTransactionsPanel
        query={transactions}
        decimalsFor={decimalsFor}
        emptyTitle="No transactions for this wallet yet"
        label="Transactions of this wallet"
      />
    </>
  );
}
