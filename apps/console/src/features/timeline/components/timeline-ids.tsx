import type { TimelineIds } from '@settlement/protocol';
import { Link } from 'react-router';
import { CopyButton } from '../../../components/ui/copy-button';
import { timelineHref } from '../../../lib/timeline-href';

/** Every id a line may carry, in the order a person reads them, with its words. */
const ID_LABELS: { name: keyof TimelineIds; label: string }[] = [
  { name: 'correlationId', label: 'correlation id' },
  { name: 'requestId', label: 'request id' },
  { name: 'upstreamRequestId', label: 'upstream request id' },
  { name: 'transactionId', label: 'transaction id' },
  { name: 'clientReference', label: 'client reference' },
  { name: 'txHash', label: 'tx hash' },
  { name: 'operationId', label: 'operation id' },
  { name: 'idempotencyKey', label: 'idempotency key' },
  { name: 'eventId', label: 'event id' },
  { name: 'walletId', label: 'wallet id' },
  { name: 'accountId', label: 'account id' },
  { name: 'address', label: 'address' },
  { name: 'withdrawalRequestId', label: 'withdrawal request id' },
];

/** The line's ids: each one copyable and each one its own timeline. */
export function TimelineIdList({ ids, current }: { ids: TimelineIds; current: string }) {
  const present = ID_LABELS.flatMap(({ name, label }) => {
    const value = ids[name];
    return value ? [{ name, label, value }] : [];
  });
  if (present.length === 0) return null;
  return (
    <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs">
      {present.map(({ name, label, value }) => (
        <div key={name} className="inline-flex min-w-0 items-center gap-1">
          <dt className="text-slate-600">{label}</dt>
          <dd className="inline-flex min-w-0 items-center gap-1">
            {value === current ? (
              <code className="truncate font-mono font-semibold text-slate-900" title={value}>
                {value}
              </code>
            ) : (
              <Link
                to={timelineHref(value)}
                title={`Timeline of ${label} ${value}`}
                className="truncate font-mono text-indigo-700 underline"
              >
                {value}
              </Link>
            )}
            <CopyButton value={value} label={`${label} ${value}`} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
