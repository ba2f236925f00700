import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { QueryView } from '../../../components/ui/query-view';
import { Skeleton } from '../../../components/ui/skeleton';
import { withdrawalRequestQuery } from '../../../features/governance/api/withdrawal-request';
import { RequestDetail } from '../../../features/governance/components/request-detail';
import { useSession } from '../../shell/session-context';
import { useCatalog } from '../../use-catalog';

export function ApprovalDetailPage() {
  const { requestId = '' } = useParams();
  const { session } = useSession();
  const { decimalsFor } = useCatalog();
  const query = useQuery(withdrawalRequestQuery(requestId));
  return (
    <>
      <PageHeader
        title="Withdrawal request"
        description={
          <Link to="/approvals" className="text-indigo-700 underline">
            Back to approvals
          </Link>
        }
      />
      <QueryView query={query} skeleton={<Skeleton className="h-64" />}>
        {(request) => (
          <RequestDetail
            request={request}
            decimals={decimalsFor(request.asset)}
            operator={session.operator}
          />
        )}
      </QueryView>
    </>
  );
}
