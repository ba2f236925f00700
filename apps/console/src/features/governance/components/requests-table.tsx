import type { WithdrawalRequest } from '@settlement/protocol';
import { clsx } from 'clsx';
import { Link } from 'react-router';
import { Amount } from '../../../components/ui/amount';
import { StatusBadge } from '../../../components/ui/badge';
import { buttonClass } from '../../../components/ui/button';
import { Card, CardFields, CardList } from '../../../components/ui/card-list';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { WalletName } from '../../../components/ui/wallet-name';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';

type Props = {
  requests: readonly WithdrawalRequest[];
  decimalsFor: (asset: string) => number | null;
};

const LABEL = 'Withdrawal requests';

function requestPath(request: WithdrawalRequest): string {
  return `/approvals/${encodeURIComponent(request.id)}`;
}

function RequestAmount({
  request,
  decimalsFor,
}: {
  request: WithdrawalRequest;
  decimalsFor: Props['decimalsFor'];
}) {
  return (
    <Amount
      atomic={request.amountAtomic}
      decimals={decimalsFor(request.asset)}
      asset={request.asset}
    />
  );
}

function RequestApprovals({ request }: { request: WithdrawalRequest }) {
  return (
    <>
      {request.approvals.length} of {request.approvalsRequired.count}
    </>
  );
}

/**
 * On a phone each request is a card that opens with what an approver weighs: the amount,
 * status and the whole destination (the table truncated it and put the amount, destination
 * and status beyond the right edge), then a full-width link to the request.
 */
function RequestCards({ requests, decimalsFor }: Props) {
  return (
    <CardList label={LABEL}>
      {requests.map((request) => (
        <Card key={request.id}>
          <p className="flex flex-wrap items-center justify-between gap-2">
            <span className="text-base font-semibold">
              <RequestAmount request={request} decimalsFor={decimalsFor} />
            </span>
            <StatusBadge status={request.status} />
          </p>
          <CardFields
            fields={[
              ['From', <WalletName walletId={request.walletId} isLink={false} />],
              ['Destination', <span className="font-mono break-all">{request.toAddress}</span>],
              ['Requester', request.requester],
              ['Approvals', <RequestApprovals request={request} />],
              ['Requested', <Time value={request.createdAt} />],
            ]}
          />
          <Link to={requestPath(request)} className={clsx(buttonClass('secondary'), 'w-full')}>
            Open request
            <span className="sr-only">
              {' '}
              by {request.requester}, <Time value={request.createdAt} />
            </span>
          </Link>
        </Card>
      ))}
    </CardList>
  );
}

export function RequestsTable({ requests, decimalsFor }: Props) {
  const isPhone = useMediaQuery(PHONE_QUERY);
  if (isPhone) return <RequestCards requests={requests} decimalsFor={decimalsFor} />;
  return (
    <Table label={LABEL}>
      <thead>
        <tr>
          <Th>Requested</Th>
          <Th>Requester</Th>
          <Th className="text-right">Amount</Th>
          <Th>From</Th>
          <Th>Destination</Th>
          <Th>Approvals</Th>
          <Th>Status</Th>
        </tr>
      </thead>
      <tbody>
        {requests.map((request) => (
          <tr key={request.id}>
            <Td>
              <Link to={requestPath(request)} className="font-medium text-indigo-700 underline">
                <Time value={request.createdAt} />
              </Link>
            </Td>
            <Td>{request.requester}</Td>
            <Td className="text-right">
              <RequestAmount request={request} decimalsFor={decimalsFor} />
            </Td>
            <Td className="max-w-56">
              {/* Not a link: the row's link is its request; the wallet opens from there. */}
              <WalletName walletId={request.walletId} isLink={false} />
            </Td>
            <Td className="max-w-56 truncate font-mono text-xs" title={request.toAddress}>
              {request.toAddress}
            </Td>
            <Td>
              <RequestApprovals request={request} />
            </Td>
            <Td>
              <StatusBadge status={request.status} />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
