import type { WithdrawalRequest } from '@settlement/protocol';
import { Link } from 'react-router';
import { Amount } from '../../../components/ui/amount';
import { StatusBadge } from '../../../components/ui/badge';
import { ChainBadge } from '../../../components/ui/chain-badge';
import { CopyableId } from '../../../components/ui/copy-button';
import { DetailList } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { Time } from '../../../components/ui/time';
import { WalletName } from '../../../components/ui/wallet-name';
import { DecisionExplanation } from './decision-explanation';
import { FundsCheck, type Funds } from './funds-check';
import { RequestActions } from './request-actions';

export function RequestDetail({
  request,
  decimals,
  operator,
  funds,
}: {
  request: WithdrawalRequest;
  decimals: number | null;
  operator: { username: string; role: string };
  /** The wallet's means for the request; without it, no funds check is shown. */
  funds?: Funds;
}) {
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="space-y-6">
        <Panel title="Withdrawal">
          <DetailList
            items={[
              { label: 'Status', value: <StatusBadge status={request.status} /> },
              {
                label: 'Amount',
                value: (
                  <Amount atomic={request.amountAtomic} decimals={decimals} asset={request.asset} />
                ),
              },
              { label: 'Chain', value: <ChainBadge chain={request.chain} /> },
              {
                label: 'Destination',
                value: <CopyableId value={request.toAddress} label="destination address" />,
              },
              // The wallet as the treasury names it (and its short address), not its id.
              { label: 'From', value: <WalletName walletId={request.walletId} /> },
              { label: 'Requester', value: request.requester },
              { label: 'Requested', value: <Time value={request.createdAt} /> },
              { label: 'Expires', value: <Time value={request.expiresAt} /> },
              {
                label: 'Operation id',
                value: <CopyableId value={request.operationId} label="operation id" />,
              },
              ...(request.transactionId
                ? [
                    {
                      label: 'Transaction',
                      value: (
                        <Link
                          className="text-indigo-700 underline"
                          to={`/transactions/${encodeURIComponent(request.transactionId)}`}
                        >
                          {request.transactionId}
                        </Link>
                      ),
                    },
                  ]
                : []),
              ...(request.rejection
                ? [
                    {
                      label: 'Rejected',
                      value: `${request.rejection.operator}: ${request.rejection.reason}`,
                    },
                  ]
                : []),
              ...(request.failure
                ? [
                    {
                      label: 'Failure',
                      value: `${request.failure.code}: ${request.failure.message}`,
                    },
                  ]
                : []),
            ]}
          />
        </Panel>
        <Panel title="Policy reasoning">
          <DecisionExplanation decision={request.decision} decimals={decimals} />
        </Panel>
      </div>
      <div className="space-y-6">
        {/* Beside the approval, where the approver decides, and above it on a phone. */}
        {funds ? <FundsCheck request={request} decimals={decimals} funds={funds} /> : null}
        <Panel title="Approvals">
          <div className="p-4 text-sm">
            <p className="text-slate-800">
              {request.approvals.length} of {request.approvalsRequired.count} required, from{' '}
              {request.approvalsRequired.fromRoles.join(' or ')}.
            </p>
            {request.approvals.length > 0 ? (
              <ul className="mt-2 space-y-1">
                {request.approvals.map((approval) => (
                  <li key={approval.operator}>
                    <span className="font-medium">{approval.operator}</span> ({approval.role}),{' '}
                    <Time value={approval.at} />
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
          <RequestActions request={request} operator={operator} />
        </Panel>
      </div>
    </div>
  );
}
