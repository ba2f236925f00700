import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ExportButton } from '../../../components/ui/export-button';
import { LoadMore } from '../../../components/ui/load-more';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { QueryView } from '../../../components/ui/query-view';
import { TableSkeleton } from '../../../components/ui/skeleton';
import { ACCOUNT_FILTERS } from '../../../features/accounts/api/keys';
import { accountListQuery } from '../../../features/accounts/api/list-accounts';
import { AccountFilters } from '../../../features/accounts/components/account-filters';
import { AccountsTable } from '../../../features/accounts/components/accounts-table';
import { CreateAccountDialog } from '../../../features/accounts/components/create-account-dialog';
import { roleReason } from '../../../features/session/permissions';
import { useUrlFilters } from '../../../lib/url-filters';
import { PageViewsMenu } from '../../shell/page-views-menu';
import { useSession } from '../../shell/session-context';

export function AccountsPage() {
  const { permissions } = useSession();
  const navigate = useNavigate();
  const [filters, setFilters] = useUrlFilters(ACCOUNT_FILTERS);
  const [isCreateOpen, setIsCreateOpen] = useState(false);
  const query = useInfiniteQuery(accountListQuery(filters));
  const accounts = query.data?.pages.flatMap((page) => page.items) ?? [];
  const hasFilters = Boolean(filters.search ?? filters.externalId);

  return (
    <>
      <PageHeader
        title="Accounts"
        description="Ledger accounts group wallets and activity under one business identity."
        actions={
          <>
            <PageViewsMenu
              subject="accounts"
              names={ACCOUNT_FILTERS}
              filters={filters}
              onApply={setFilters}
            />
            <ExportButton subject="accounts" filters={filters} />
            {permissions.canCreateAccount ? (
              <Button
                variant="primary"
                onClick={() => {
                  setIsCreateOpen(true);
                }}
              >
                Create account
              </Button>
            ) : (
              <p className="text-sm text-slate-600">{roleReason('create accounts', 'treasury')}</p>
            )}
          </>
        }
      />
      <Panel>
        <AccountFilters key={JSON.stringify(filters)} filters={filters} onChange={setFilters} />
        <QueryView
          query={query}
          skeleton={<TableSkeleton label="Loading accounts" />}
          isEmpty={accounts.length === 0}
          empty={
            <EmptyState title={hasFilters ? 'No account matches these filters' : 'No accounts yet'}>
              {hasFilters
                ? 'Change or clear the filters.'
                : permissions.canCreateAccount
                  ? 'Create the first account to start adding wallets.'
                  : 'A treasury operator can create the first account.'}
            </EmptyState>
          }
        >
          {() => (
            <>
              <AccountsTable accounts={accounts} />
              <LoadMore query={query} />
            </>
          )}
        </QueryView>
      </Panel>
      {permissions.canCreateAccount ? (
        <CreateAccountDialog
          isOpen={isCreateOpen}
          onOpenChange={setIsCreateOpen}
          onCreated={(account) => {
            setIsCreateOpen(false);
            void navigate(`/accounts/${encodeURIComponent(account.id)}`);
          }}
        />
      ) : null}
    </>
  );
}
