import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { CopyableId } from '../../../components/ui/copy-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { ExtraFields, JsonBlock } from '../../../components/ui/extra-fields';
import { LoadMore } from '../../../components/ui/load-more';
import { DetailList, PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { QueryView } from '../../../components/ui/query-view';
import { Skeleton, TableSkeleton } from '../../../components/ui/skeleton';
import { Time } from '../../../components/ui/time';
import { accountBalancesQuery } from '../../../features/accounts/api/account-balances';
import { accountDetailQuery } from '../../../features/accounts/api/account-detail';
import { accountTransactionsQuery } from '../../../features/accounts/api/account-transactions';
import { accountWalletsQuery } from '../../../features/accounts/api/account-wallets';
import { BalancesTable } from '../../../features/wallets/components/balances-table';
import { WalletsTable } from '../../../features/wallets/components/wallets-table';
import { useCatalog } from '../../use-catalog';
import { CreateWalletLauncher } from '../wallets/create-wallet-launcher';
import { RelatedTransactionsPanel } from '../transactions/related-transactions-panel';

const KNOWN = [
  'id',
  'orgId',
  'name',
  'externalId',
  'metadata',
  'createdAt',
  'updatedAt',
  'walletCount',
  'balances',
];

export function AccountDetailPage() {
  const { accountId = '' } = useParams();
  const account = useQuery(accountDetailQuery(accountId));
  const balances = useQuery(accountBalancesQuery(accountId));
  const wallets = useInfiniteQuery(accountWalletsQuery(accountId));
  const transactions = useInfiniteQuery(accountTransactionsQuery(accountId));
  const { decimalsFor } = useCatalog();

  if (account.isError) {
    return (
      <>
        <PageHeader title="Account" />
        <ErrorPanel error={account.error} onRetry={() => void account.refetch()} />
      </>
    );
  }
  const data = account.data;
  const walletItems = wallets.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link to="/accounts" className="text-indigo-700 hover:underline">
          Accounts
        </Link>
      </nav>
      <PageHeader
        title={data?.name ?? 'Account'}
        description={<CopyableId value={accountId} label="account id" />}
        actions={<CreateWalletLauncher defaultAccountId={accountId} />}
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <Panel title="Account">
          {data ? (
            <>
              <DetailList
                items={[
                  { label: 'Name', value: data.name },
                  {
                    label: 'External id',
                    value: data.externalId ? (
                      <CopyableId value={data.externalId} label="external id" />
                    ) : (
                      '—'
                    ),
                  },
                  { label: 'Account id', value: <CopyableId value={data.id} label="account id" /> },
                  {
                    label: 'Organization',
                    value: <CopyableId value={data.orgId} label="organization id" />,
                  },
                  {
                    label: 'Wallets',
                    value: <span className="tabular-nums">{data.walletCount}</span>,
                  },
                  { label: 'Created', value: <Time value={data.createdAt} /> },
                  { label: 'Updated', value: <Time value={data.updatedAt} /> },
                ]}
              />
              <ExtraFields object={data} known={KNOWN} />
            </>
          ) : (
            <div className="space-y-3 p-4">
              <Skeleton className="h-5 w-2/3" />
              <Skeleton className="h-5 w-1/2" />
              <Skeleton className="h-5 w-3/4" />
            </div>
          )}
        </Panel>
        <Panel title="Metadata">
          <div className="p-4">
            {data ? (
              data.metadata && Object.keys(data.metadata).length > 0 ? (
                <JsonBlock value={data.metadata} label="Account metadata" />
              ) : (
                <p className="text-sm text-slate-600">No metadata.</p>
              )
            ) : (
              <Skeleton className="h-24 w-full" />
            )}
          </div>
        </Panel>
      </div>
      <Panel title="Balances" className="mt-6">
        <QueryView query={balances} skeleton={<TableSkeleton rows={2} label="Loading balances" />}>
          {(data) => (
            <BalancesTable balances={data} decimalsFor={decimalsFor} label="Account balances" />
          )}
        </QueryView>
      </Panel>
      <Panel title="Wallets" className="mt-6">
        <QueryView
          query={wallets}
          skeleton={<TableSkeleton rows={2} label="Loading wallets" />}
          isEmpty={walletItems.length === 0}
          empty={<EmptyState title="No wallets for this account yet" />}
        >
          {() => (
            <>
              <WalletsTable wallets={walletItems} label="Wallets of this account" />
              <LoadMore query={wallets} />
            </>
          )}
        </QueryView>
      </Panel>
      <RelatedTransactionsPanel
        query={transactions}
        decimalsFor={decimalsFor}
        emptyTitle="No transactions for this account yet"
        label="Transactions of this account"
      />
    </>
  );
}
