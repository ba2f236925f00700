import type { WithdrawalRequest } from '@settlement/protocol';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { QueryView } from '../../../components/ui/query-view';
import { Skeleton } from '../../../components/ui/skeleton';
import { useOpenRequests } from '../../../features/governance/api/open-requests';
import { withdrawalRequestQuery } from '../../../features/governance/api/withdrawal-request';
import { needsFundsCheck, type Funds } from '../../../features/governance/components/funds-check';
import { RequestDetail } from '../../../features/governance/components/request-detail';
import { committedFor } from '../../../features/governance/model/open-requests';
import {
  isTokenOn,
  NATIVE_TRANSFER_FEE_ATOMIC,
} from '../../../features/transactions/model/withdrawal-math';
import { walletBalancesQuery } from '../../../features/wallets/api/wallet-balances';
import { useSession } from '../../shell/session-context';
import { useCatalog } from '../../use-catalog';

/** The request with what its wallet can still pay: the balances and open requests it competes with. */
function RequestWithFunds({
  request,
  operator,
}: {
  request: WithdrawalRequest;
  operator: { username: string; role: string };
}) {
  const { decimalsFor, assets, query: catalog } = useCatalog();
  const balances = useQuery({
    ...walletBalancesQuery(request.walletId),
    enabled: needsFundsCheck(request),
  });
  const { open, isError: isOthersError } = useOpenRequests();
  const asset = assets.find((a) => a.asset === request.asset);
  // A native transfer pays its flat fee from the same balance; a token pays its fee in TRX.
  const isNative = asset !== undefined && !isTokenOn(asset, request.chain);
  const balance = balances.data?.find(
    (b) => b.asset === request.asset && b.chain === request.chain,
  );
  const funds: Funds = {
    // No row: the wallet has never held the asset, so nothing of it is available.
    availableAtomic: balances.data ? BigInt(balance?.availableBalance ?? '0') : null,
    committed: open ? committedFor(open, request.walletId, request.asset, request.id) : null,
    isAtLeast: open?.isAtLeast ?? false,
    isError: balances.isError,
    isOthersError,
    // Unknown until the catalog is read: judged without it, a native fee would be left out.
    feeAtomic: !catalog.data ? null : isNative ? NATIVE_TRANSFER_FEE_ATOMIC : 0n,
  };
  return (
    <RequestDetail
      request={request}
      decimals={decimalsFor(request.asset)}
      operator={operator}
      funds={funds}
    />
  );
}

export function ApprovalDetailPage() {
  const { requestId = '' } = useParams();
  const { session } = useSession();
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
        {(request) => <RequestWithFunds request={request} operator={session.operator} />}
      </QueryView>
    </>
  );
}
