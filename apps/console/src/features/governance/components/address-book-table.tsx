import type { AddressBookEntry } from '@settlement/protocol';
import { StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardList } from '../../../components/ui/card-list';
import { ChainBadge } from '../../../components/ui/chain-badge';
import { ActionsTh, Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';

type Props = {
  label: string;
  entries: readonly AddressBookEntry[];
  operator: { username: string; role: string };
  isBusy: boolean;
  onApprove: (id: string) => void;
  onRemove: (id: string) => void;
};

/** Approve (an admin other than the proposer, while pending) and Remove (any admin). */
function EntryActions({
  entry,
  operator,
  isBusy,
  onApprove,
  onRemove,
}: Omit<Props, 'label' | 'entries'> & { entry: AddressBookEntry }) {
  if (operator.role !== 'admin') return null;
  return (
    <>
      {entry.status === 'PENDING_APPROVAL' ? (
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
    </>
  );
}

/**
 * On a phone each entry is a card with its whole address above its buttons: in the table the
 * address scrolled off screen, and an approver must read the address they approve.
 */
function EntryCards({ label, entries, ...actions }: Props) {
  return (
    <CardList label={label}>
      {entries.map((entry) => (
        <Card key={entry.id}>
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-medium">{entry.label}</span>
            <ChainBadge chain={entry.chain} />
            <StatusBadge status={entry.status} />
          </p>
          <p className="font-mono text-xs break-all text-slate-900">{entry.address}</p>
          <p className="text-xs text-slate-600">
            Proposed by {entry.createdBy}, <Time value={entry.createdAt} />
            {entry.approvedBy ? `; approved by ${entry.approvedBy}` : null}
          </p>
          <div className="flex items-center justify-end gap-2">
            <EntryActions entry={entry} {...actions} />
          </div>
        </Card>
      ))}
    </CardList>
  );
}

export function AddressBookTable(props: Props) {
  const { label, entries, ...actions } = props;
  const isPhone = useMediaQuery(PHONE_QUERY);
  if (isPhone) return <EntryCards {...props} />;
  return (
    <Table label={label}>
      <thead>
        <tr>
          <Th>Label</Th>
          <Th>Chain</Th>
          <Th>Address</Th>
          <Th>Status</Th>
          <Th>Proposed</Th>
          <ActionsTh />
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
              <EntryActions entry={entry} {...actions} />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
