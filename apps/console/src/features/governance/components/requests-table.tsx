import type { WithdrawalRequest } from '@settlement/protocol';
import { Link } from 'react-router';
import { Amount } from '../../../components/ui/amount';
import { StatusBadge } from '../../../components/ui/badge';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';

export function RequestsTable({
  requests,
  decimalsFor,
}: {
  requests: readonly WithdrawalRequest[];
  decimalsFor: (asset: string) => number | null;
}) {
  return (
    <Table label="Withdrawal requests">
      <thead>
        <tr>
          <Th>Requested</Th>
          <Th>Requester</Th>
          <Th className="text-right">Amount</Th>
          <Th>Destination</Th>
          <Th>Approvals</Th>
          <Th>Status</Th>
        </tr>
      </thead>
      <tbody>
        {requests.map((request) => (
          <tr key={request.id}>
            <Td>
              <Link
                to={`/approvals/${encodeURIComponent(request.id)}`}
                className="font-medium text-indigo-700 underline"
              >
                <Time value={request.createdAt} />
              </Link>
            </Td>
            <Td>{request.requester}</Td>
            <Td className="text-right">
              <Amount
                atomic={request.amountAtomic}
                decimals={decimalsFor(request.asset)}
                asset={request.asset}
              />
            </Td>
            <Td className="max-w-56 truncate font-mono text-xs" title={request.toAddress}>
              {request.toAddress}
            </Td>
            <Td>
              {request.approvals.length} of {request.approvalsRequired.count}
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
