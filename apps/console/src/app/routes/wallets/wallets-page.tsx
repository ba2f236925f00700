import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { EmptyState } from '../../../components/ui/empty-state';
import { ExportButton } from '../../../components/ui/export-button';
import { LoadMore } from '../../../components/ui/load-more';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { QueryView } from '../../../components/ui/query-view';
import { TableSkeleton } from '../../../components/ui/skeleton';
import { WALLET_FILTERS } from '../../../features/wallets/api/keys';
import { walletListQuery } from '../../../features/wallets/api/list-wallets';
import { WalletFilters } from '../../../features/wallets/components/wallet-filters';
import { WalletsTable } from '../../../features/wallets/components/wallets-table';
import { overviewQuery } from '../../../features/treasury/api/overview';
import { useUrlFilters } from '../../../lib/url-filters';
import { PageViewsMenu } from '../../shell/page-views-menu';
import { useCatalog } from '../../use-catalog';
import { useFilterSuggestions } from '../../use-filter-suggestions';
import { CreateWalletLauncher } from './create-wallet-launcher';

export function WalletsPage() {
  const [filters, setFilters] = useUrlFilters(WALLET_FILTERS);
  const query = useInfiniteQuery(walletListQuery(filters));
  const wallets = query.data?.pages.flatMap((page) => page.items) ?? [];
  const hasFilters = Object.values(filters).some(Boolean);
  // Balances of every wallet in one call (the overview's), not one request per row.
  const overview = useQuery(overviewQuery());
  const { decimalsFor } = useCatalog();
  const suggestions = useFilterSuggestions();
  const balancesFor = (walletId: string) =>
    overview.data?.wallets.find((w) => w.id === walletId)?.balances;

  return (
    <>
      <PageHeader
        title="Wallets"
        description="Blockchain addresses of your accounts. Filters stay in the address bar, so a view can be shared."
        actions={
          <>
            <PageViewsMenu
              subject="wallets"
              names={WALLET_FILTERS}
              filters={filters}
              onApply={setFilters}
            />
            <ExportButton subject="wallets" filters={filters} />
            <CreateWalletLauncher />
          </>
        }
      />
      <Panel>
        <WalletFilters
          key={JSON.stringify(filters)}
          filters={filters}
          accounts={suggestions.accounts}
          onChange={setFilters}
        />
        <QueryView
          query={query}
          skeleton={<TableSkeleton label="Loading wallets" />}
          isEmpty={wallets.length === 0}
          empty={
            <EmptyState title={hasFilters ? 'No wallet matches these filters' : 'No wallets yet'}>
              {hasFilters ? 'Change or clear the filters.' : 'Wallets appear here once created.'}
            </EmptyState>
          }
        >
          {() => (
            <>
              <WalletsTable wallets={wallets} balancesFor={balancesFor} decimalsFor={decimalsFor} />
              <LoadMore query={query} />
            </>
          )}
        </QueryView>
      </Panel>
    </>
  );
}
