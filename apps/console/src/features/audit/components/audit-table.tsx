import type { AuditItem } from '@settlement/protocol';
import { Link } from 'react-router';
import { CopyButton } from '../../../components/ui/copy-button';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { timelineHref } from '../../../lib/timeline-href';

const ID_COLUMNS = [
  { name: 'operationId', label: 'operation id' },
  { name: 'idempotencyKey', label: 'idempotency key' },
  { name: 'upstreamRequestId', label: 'upstream request id' },
  { name: 'correlationId', label: 'correlation id' },
  { name: 'resourceId', label: 'resource id' },
] as const;

/** An id that opens its timeline, with a copy button. */
function IdCell({ value, label }: { value: string; label: string }) {
  return (
    <span className="inline-flex max-w-full items-center gap-1 text-xs">
      <span className="text-slate-600">{label}</span>
      <Link
        to={timelineHref(value)}
        title={`Timeline of ${label} ${value}`}
        className="max-w-[14rem] truncate font-mono text-indigo-700 underline"
      >
        {value}
      </Link>
      <CopyButton value={value} label={`${label} ${value}`} />
    </span>
  );
}

export function AuditTable({ items }: { items: AuditItem[] }) {
  return (
    <Table label="Audit log">
      <thead>
        <tr>
          <Th>At</Th>
          <Th>Operator</Th>
          <Th>Action</Th>
          <Th>Outcome</Th>
          <Th>Ids</Th>
          <Th>Detail</Th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.id}>
            <Td>
              <Time value={item.at} />
            </Td>
            <Td>{item.operator ?? '—'}</Td>
            <Td className="font-mono text-xs">{item.action}</Td>
            <Td className="text-xs">{item.outcome}</Td>
            <Td>
              <div className="flex flex-col gap-0.5">
                {ID_COLUMNS.map(({ name, label }) => {
                  const value = item[name];
                  return value ? <IdCell key={name} value={value} label={label} /> : null;
                })}
              </div>
            </Td>
            <Td className="max-w-xs text-xs break-words text-slate-700">{item.detail ?? '—'}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
