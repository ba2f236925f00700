import { ADDRESS_BOOK_LIST_MAX } from '@settlement/protocol';
import { useQuery } from '@tanstack/react-query';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { QueryView } from '../../../components/ui/query-view';
import { TableSkeleton } from '../../../components/ui/skeleton';
import { addressBookQuery } from '../../../features/governance/api/address-book';
import { useAddressBookMutation } from '../../../features/governance/api/address-book-change';
import { AddressBookForm } from '../../../features/governance/components/address-book-form';
import { AddressBookTable } from '../../../features/governance/components/address-book-table';
import { roleReason } from '../../../features/session/permissions';
import { useSession } from '../../shell/session-context';

export function AddressBookPage() {
  const { session, permissions } = useSession();
  const query = useQuery(addressBookQuery());
  const change = useAddressBookMutation();
  const entries = query.data?.items ?? [];
  const pending = entries.filter((e) => e.status === 'PENDING_APPROVAL');
  const active = entries.filter((e) => e.status === 'ACTIVE');
  const tableProps = {
    operator: session.operator,
    isBusy: change.isPending,
    onApprove: (id: string) => {
      change.mutate({ kind: 'approve', id });
    },
    onRemove: (id: string) => {
      change.mutate({ kind: 'remove', id });
    },
  };

  return (
    <>
      <PageHeader
        title="Address book"
        description="Destinations the policy can trust. A new entry counts only once an admin other than its proposer approves it."
      />
      <div className="space-y-6">
        <Panel title="Propose an entry">
          {permissions.canCreateWithdrawal ? (
            <AddressBookForm
              isBusy={change.isPending}
              onSubmit={(entry) => {
                change.mutate({ kind: 'create', entry });
              }}
            />
          ) : (
            <p className="p-4 text-sm text-slate-600">
              {roleReason('propose address-book entries', 'treasury')}
            </p>
          )}
          {change.isError ? (
            <div className="px-4 pb-4">
              <ErrorPanel error={change.error} />
            </div>
          ) : null}
        </Panel>
        <QueryView query={query} skeleton={<TableSkeleton label="Loading the address book" />}>
          {() => (
            <>
              {entries.length >= ADDRESS_BOOK_LIST_MAX ? (
                <p role="note" className="mb-6 text-sm text-amber-900">
                  Showing the newest {ADDRESS_BOOK_LIST_MAX} entries. Older entries are not listed
                  here; the withdrawal policy still counts every active one.
                </p>
              ) : null}
              <Panel title={`Pending approval (${pending.length})`}>
                {pending.length > 0 ? (
                  <AddressBookTable
                    label="Entries pending approval"
                    entries={pending}
                    {...tableProps}
                  />
                ) : (
                  <EmptyState title="No entry waits for approval" />
                )}
              </Panel>
              <Panel title="Active" className="mt-6">
                {active.length > 0 ? (
                  <AddressBookTable label="Active entries" entries={active} {...tableProps} />
                ) : (
                  <EmptyState title="No active entries yet" />
                )}
              </Panel>
            </>
          )}
        </QueryView>
      </div>
    </>
  );
}
