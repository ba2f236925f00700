import { Link } from 'react-router';
import { CopyableId } from '../../../components/ui/copy-button';
import { JsonBlock } from '../../../components/ui/extra-fields';
import { DetailList } from '../../../components/ui/page-header';
import { Time } from '../../../components/ui/time';
import type { FeedEvent } from '../model/event-filter';

function idOf(data: Record<string, unknown>, key: string): string | null {
  const value = data[key];
  return typeof value === 'string' && value ? value : null;
}

const linkClass = 'font-medium text-indigo-700 underline';

/** One event: its identity, links to what it names, and the original payload. */
export function EventDetail({ event, raw }: { event: FeedEvent; raw: unknown }) {
  const transactionId = idOf(event.data, 'transactionId');
  const walletId = idOf(event.data, 'walletId');
  const accountId = idOf(event.data, 'accountId');
  return (
    <div>
      <DetailList
        items={[
          { label: 'Type', value: <code className="font-mono text-xs">{event.type}</code> },
          { label: 'Event id', value: <CopyableId value={event.id} label="event id" isShort /> },
          { label: 'Occurred', value: <Time value={event.occurredAt} /> },
          {
            label: 'Correlation id',
            value: event.correlationId ? (
              <CopyableId value={event.correlationId} label="correlation id" isShort />
            ) : (
              '—'
            ),
          },
        ]}
      />
      <ul className="flex flex-wrap gap-x-4 gap-y-1 border-t border-slate-100 px-4 py-3 text-sm">
        {transactionId ? (
          <li>
            <Link to={`/transactions/${encodeURIComponent(transactionId)}`} className={linkClass}>
              Transaction
            </Link>
          </li>
        ) : null}
        {walletId ? (
          <li>
            <Link to={`/wallets/${encodeURIComponent(walletId)}`} className={linkClass}>
              Wallet
            </Link>
          </li>
        ) : null}
        {accountId ? (
          <li>
            <Link to={`/accounts/${encodeURIComponent(accountId)}`} className={linkClass}>
              Account
            </Link>
          </li>
        ) : null}
        {event.correlationId ? (
          <li>
            <Link
              to={`/support?q=${encodeURIComponent(event.correlationId)}`}
              className={linkClass}
            >
              Support (correlation id)
            </Link>
          </li>
        ) : null}
      </ul>
      <div className="border-t border-slate-100 p-4">
        <h3 className="mb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">
          Original payload
        </h3>
        <JsonBlock value={raw} label="Event payload" />
      </div>
    </div>
  );
}
