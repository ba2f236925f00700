import {
  WITHDRAWAL_REQUEST_STATUSES,
  WithdrawalRequestStatusSchema,
  type WithdrawalRequestStatus,
} from '@settlement/protocol';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { SelectField } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { QueryView } from '../../../components/ui/query-view';
import { TableSkeleton } from '../../../components/ui/skeleton';
import { awaitingMyApproval } from '../../../features/governance/api/approvals-inbox';
import { withdrawalRequestListQuery } from '../../../features/governance/api/withdrawal-requests';
import { RequestsTable } from '../../../features/governance/components/requests-table';
import { useSession } from '../../shell/session-context';
import { useCatalog } from '../../use-catalog';

const ALL = 'ALL';
const MINE = 'MINE';

/** The approvals inbox: what waits for me, my own requests, or every request by status. */
export function ApprovalsPage() {
  const { session } = useSession();
  const { decimalsFor } = useCatalog();
  const [params, setParams] = useSearchParams();
  const view = params.get('view') ?? 'INBOX';
  const status: WithdrawalRequestStatus | null =
    view === 'INBOX'
      ? 'AWAITING_APPROVAL'
      : (WithdrawalRequestStatusSchema.safeParse(view).data ?? null);
  const query = useQuery(withdrawalRequestListQuery(status));
  const items = query.data?.items ?? [];
  const shown =
    view === 'INBOX'
      ? awaitingMyApproval(items, session.operator)
      : view === MINE
        ? items.filter((r) => r.requester === session.operator.username)
        : items;

  return (
    <>
      <PageHeader
        title="Approvals"
        description="Withdrawals the policy holds for approval. The requester never approves their own."
      />
      <Panel>
        <div className="max-w-xs p-4">
          <SelectField
            label="Show"
            value={view}
            options={[
              { value: 'INBOX', label: 'Waiting for my approval' },
              { value: MINE, label: 'My requests' },
              { value: ALL, label: 'All requests' },
              ...WITHDRAWAL_REQUEST_STATUSES.map((s) => ({
                value: s,
                label: `Status: ${s.replaceAll('_', ' ').toLowerCase()}`,
              })),
            ]}
            onChange={(event) => {
              setParams({ view: event.target.value }, { preventScrollReset: true });
            }}
          />
        </div>
        <QueryView
          query={query}
          skeleton={<TableSkeleton label="Loading withdrawal requests" />}
          isEmpty={shown.length === 0}
          empty={
            <EmptyState
              title={view === 'INBOX' ? 'Nothing waits for your approval' : 'No requests'}
            >
              New requests appear here live.
            </EmptyState>
          }
        >
          {() => <RequestsTable requests={shown} decimalsFor={decimalsFor} />}
        </QueryView>
      </Panel>
    </>
  );
}
