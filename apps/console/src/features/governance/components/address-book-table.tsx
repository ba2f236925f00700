import type { AddressBookEntry } from '@settlement/protocol';
import { StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ChainBadge } from '../../../components/ui/chain-badge';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';

export function AddressBookTable({
  label,
  entries,
  operator,
  isBusy,
  onApprove,
  onRemove,
}: {
  label: string;
  entries: readonly AddressBookEntry[];
  operator: { username: string; role: string };
  isBusy: boolean;
  onApprove: (id: string) => void;
  onRemove: (id: string) => void;
}) {
  const isAdmin = operator.role === 'admin';
  return (
    <Table label={label}>
      <thead>
        <tr>
          <Th>Label</Th>
          <Th>Chain</Th>
          <Th>Address</Th>
          <Th>Status</Th>
          <Th>Proposed</Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id}>
            <Td className="font-medium">{entry.label}</Td>
            <Td>
              <ChainBadge chain={entry.chain} />
            </Td>
            <Td className="font-mono text-xs">{entry.address}</Td>
            <Td>
              <StatusBadge status={entry.status} />
              {entry.approvedBy ? (
                <span className="ml-2 text-xs text-slate-600">by {entry.approvedBy}</span>
              ) : null}
            </Td>
            <Td>
              {entry.createdBy}, <Time value={entry.createdAt} />
            </Td>
            <Td className="space-x-2 text-right whitespace-nowrap">
              {isAdmin && entry.status === 'PENDING_APPROVAL' ? (
                entry.createdBy === operator.username ? (
                  <span className="text-xs text-slate-600">Another admin must approve</span>
                ) : (
                  <Button
                    size="sm"
                    variant="primary"
                    disabled={isBusy}
                    aria-label={`Approve ${entry.label}`}
                    onClick={() => {
                      onApprove(entry.id);
                    }}
                  >
                    Approve
                  </Button>
                )
              ) : null}
              {isAdmin ? (
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={isBusy}
                  aria-label={`Remove ${entry.label}`}
                  onClick={() => {
                    onRemove(entry.id);
                  }}
                >
                  Remove
                </Button>
              ) : null}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
