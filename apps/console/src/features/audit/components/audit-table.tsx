import type { AuditItem } from '@settlement/protocol';
import { Link } from 'react-router';
import { Card, CardFields, CardList } from '../../../components/ui/card-list';
import { CopyButton } from '../../../components/ui/copy-button';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';
import { timelineHref } from '../../../lib/timeline-href';

const ID_COLUMNS = [
  { name: 'operationId', label: 'operation id' },
  { name: 'idempotencyKey', label: 'idempotency key' },
  { name: 'upstreamRequestId', label: 'upstream request id' },
  { name: 'correlationId', label: 'correlation id' },
  { name: 'resourceId', label: 'resource id' },
] as const;

/** The ids an item has, in the columns' order. */
function idsOf(item: AuditItem) {
  return ID_COLUMNS.flatMap(({ name, label }) => {
    const value = item[name];
    return value ? [{ name, label, value }] : [];
  });
}

/** An id that opens its timeline, with a copy button. */
function IdLink({ value, label }: { value: string; label: string }) {
  return (
    <>
      <Link
        to={timelineHref(value)}
        title={`Timeline of ${label} ${value}`}
        className="max-w-[14rem] truncate font-mono text-indigo-700 underline"
      >
        {value}
      </Link>
      <CopyButton value={value} label={`${label} ${value}`} />
    </>
  );
}

function IdCell({ value, label }: { value: string; label: string }) {
  return (
    <span className="inline-flex max-w-full items-center gap-1 text-xs">
      <span className="text-slate-600">{label}</span>
      <IdLink value={value} label={label} />
    </span>
  );
}

/**
 * On a phone each action is a card: the table put the Action column beyond the right edge of
 * a 390 px screen, behind the time and the operator.
 */
function AuditCards({ items }: { items: AuditItem[] }) {
  return (
    <CardList label="Audit log">
      {items.map((item) => (
        <Card key={item.id}>
          <p className="flex flex-wrap items-baseline justify-between gap-x-2">
            <code className="font-mono text-xs font-medium break-all">{item.action}</code>
            <span className="text-xs">{item.outcome}</span>
          </p>
          <CardFields
            fields={[
              ['At', <Time value={item.at} />],
              ['Operator', item.operator ?? '—'],
              ...idsOf(item).map(
                ({ label, value }) =>
                  [
                    label.charAt(0).toUpperCase() + label.slice(1),
                    <span className="inline-flex max-w-full items-center gap-1">
                      <IdLink value={value} label={label} />
                    </span>,
                  ] as const,
              ),
              ['Detail', item.detail],
            ]}
          />
        </Card>
      ))}
    </CardList>
  );
}

export function AuditTable({ items }: { items: AuditItem[] }) {
  const isPhone = useMediaQuery(PHONE_QUERY);
  if (isPhone) return <AuditCards items={items} />;
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
                {idsOf(item).map(({ name, label, value }) => (
                  <IdCell key={name} value={value} label={label} />
                ))}
              </div>
            </Td>
            <Td className="max-w-xs text-xs break-words text-slate-700">{item.detail ?? '—'}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
