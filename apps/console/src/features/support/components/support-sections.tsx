import type { SupportEvent, SupportRequest } from '@settlement/protocol';
import { clsx } from 'clsx';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Card, CardFields, CardList } from '../../../components/ui/card-list';
import { EmptyState } from '../../../components/ui/empty-state';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { eventSummary } from '../../../lib/event-summary';
import { shortId } from '../../../lib/short-id';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';
import type { SupportResult } from '../api/support-search';
import { IdCell, MaybeId, TIME_COLUMN, TITLE_LINE, idField } from './support-cells';

/*
 * On a phone each section is a list of cards: support looks ids up on a phone during
 * incidents, and in a table the id columns started beyond the right edge of the screen. A
 * card shows the same facts with the same copy buttons as its table row.
 */

function EventTransaction({ event }: { event: SupportEvent }) {
  const transactionId =
    typeof event.data.transactionId === 'string' ? event.data.transactionId : null;
  return transactionId ? (
    <Link
      to={`/transactions/${encodeURIComponent(transactionId)}`}
      className="font-mono text-xs text-indigo-700 underline"
      aria-label={`Transaction ${transactionId}`}
      title={transactionId}
    >
      {shortId(transactionId)}
    </Link>
  ) : (
    '—'
  );
}

type EventRow = { event: SupportEvent; summary: string };

function EventCards({ rows }: { rows: EventRow[] }) {
  return (
    <CardList label="Events in time order">
      {rows.map(({ event, summary }) => (
        <Card key={event.id}>
          <p>
            <code className="font-mono text-xs font-medium break-all">{event.type}</code>
          </p>
          <CardFields
            fields={[
              ['Occurred', <Time value={event.occurredAt} />],
              ['What happened', summary],
              ['Transaction', <EventTransaction event={event} />],
              idField('correlation id', event.correlationId),
            ]}
          />
        </Card>
      ))}
    </CardList>
  );
}

/**
 * The stored events of a look-up, oldest first. "What happened" tells apart the updates of one
 * transaction (its stage, confirmations, amount), which by status alone read PENDING seven
 * times over.
 */
export function SupportEvents({
  events,
  decimalsFor,
}: {
  events: SupportResult['events'];
  decimalsFor: (asset: string) => number | null;
}) {
  const isPhone = useMediaQuery(PHONE_QUERY);
  if (events.length === 0) return <EmptyState title="No stored events match" />;
  const rows = [...events]
    .sort((a, b) => a.occurredAt.localeCompare(b.occurredAt))
    .map((event) => ({ event, summary: eventSummary(event, decimalsFor) || '—' }));
  if (isPhone) return <EventCards rows={rows} />;
  return (
    <Table label="Events in time order">
      <thead>
        <tr>
          <Th>Occurred</Th>
          <Th>Type</Th>
          <Th>What happened</Th>
          <Th>Transaction</Th>
          <Th>Correlation id</Th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ event, summary }) => (
          <tr key={event.id}>
            <Td>
              <Time value={event.occurredAt} />
            </Td>
            <Td className="font-mono text-xs">{event.type}</Td>
            <Td className="text-xs">{summary}</Td>
            <Td>
              <EventTransaction event={event} />
            </Td>
            <Td>
              <MaybeId value={event.correlationId} label="correlation id" />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** The call, its duration and who made it. `canWrap`: a long path breaks (on a card). */
function Call({ request, canWrap = false }: { request: SupportRequest; canWrap?: boolean }) {
  return (
    <>
      <code className={clsx('font-mono text-xs', canWrap ? 'break-all' : 'whitespace-nowrap')}>
        {request.method} {request.path}
      </code>
      <span className="ml-1 text-xs whitespace-nowrap text-slate-600 tabular-nums">
        {request.durationMs} ms
      </span>
      {request.operator ? (
        <div className="text-xs text-slate-600">by {request.operator}</div>
      ) : null}
    </>
  );
}

function HttpStatus({ status }: { status: number | null }) {
  if (typeof status !== 'number') return '—';
  return (
    <Badge tone={status < 400 ? 'success' : status >= 500 ? 'danger' : 'warning'}>{status}</Badge>
  );
}

/** An upstream that echoes our request id (the sandbox does) shows "same", not the id twice. */
function UpstreamRequestId({ request }: { request: SupportRequest }) {
  return request.upstreamRequestId && request.upstreamRequestId === request.requestId ? (
    <span className="text-xs text-slate-600" title={request.upstreamRequestId}>
      same<span className="sr-only"> as the request id</span>
    </span>
  ) : (
    <MaybeId value={request.upstreamRequestId} label="upstream request id" />
  );
}

function RequestCards({ requests }: { requests: SupportResult['requests'] }) {
  return (
    <CardList label="Upstream calls">
      {requests.map((request, index) => (
        <Card key={`${request.at}-${request.requestId}-${String(index)}`}>
          <div className={TITLE_LINE}>
            <div className="min-w-0">
              <Call request={request} canWrap />
            </div>
            <HttpStatus status={request.status} />
          </div>
          <CardFields
            fields={[
              ['At', <Time value={request.at} />],
              idField('correlation id', request.correlationId),
              idField('request id', request.requestId),
              ['Upstream request id', <UpstreamRequestId request={request} />],
              idField('idempotency key', request.idempotencyKey),
            ]}
          />
        </Card>
      ))}
    </CardList>
  );
}

/**
 * The upstream calls, ids first after the call itself: support looks a call up by its
 * correlation id, so that column comes before the request ids, and none of them waits behind a
 * sideways scroll at 1440 px: the operator goes under the call rather than in a column of its
 * own (see UpstreamRequestId too).
 */
export function SupportRequests({ requests }: { requests: SupportResult['requests'] }) {
  const isPhone = useMediaQuery(PHONE_QUERY);
  if (requests.length === 0) return <EmptyState title="No upstream calls match" />;
  if (isPhone) return <RequestCards requests={requests} />;
  return (
    <Table label="Upstream calls">
      <thead>
        <tr>
          <Th isCompact className={TIME_COLUMN}>
            At
          </Th>
          <Th isCompact>Call</Th>
          <Th isCompact>Status</Th>
          <Th isCompact>Correlation id</Th>
          <Th isCompact>Request id</Th>
          <Th isCompact>Upstream request id</Th>
          <Th isCompact>Idempotency key</Th>
        </tr>
      </thead>
      <tbody>
        {requests.map((request, index) => (
          <tr key={`${request.at}-${request.requestId}-${String(index)}`}>
            <Td isCompact>
              <Time value={request.at} canWrap />
            </Td>
            <Td isCompact>
              <Call request={request} />
            </Td>
            <Td isCompact>
              <HttpStatus status={request.status} />
            </Td>
            <IdCell value={request.correlationId} label="correlation id" />
            <IdCell value={request.requestId} label="request id" />
            <Td isCompact>
              <UpstreamRequestId request={request} />
            </Td>
            <IdCell value={request.idempotencyKey} label="idempotency key" />
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function ActionCards({ actions }: { actions: SupportResult['actions'] }) {
  return (
    <CardList label="Operator actions">
      {actions.map((action, index) => (
        <Card key={`${action.at}-${index}`}>
          <p className={TITLE_LINE}>
            <code className="font-mono text-xs font-medium break-all">{action.action}</code>
            <span className="text-xs">{action.outcome}</span>
          </p>
          <CardFields
            fields={[
              ['At', <Time value={action.at} />],
              ['Operator', action.operator ?? '—'],
              idField('correlation id', action.correlationId),
              idField('upstream request id', action.upstreamRequestId),
              idField('idempotency key', action.idempotencyKey),
            ]}
          />
        </Card>
      ))}
    </CardList>
  );
}

/** An operator's actions, the correlation id first among the ids (as in SupportRequests). */
export function SupportActions({ actions }: { actions: SupportResult['actions'] }) {
  const isPhone = useMediaQuery(PHONE_QUERY);
  if (actions.length === 0) return <EmptyState title="No operator actions match" />;
  if (isPhone) return <ActionCards actions={actions} />;
  return (
    <Table label="Operator actions">
      <thead>
        <tr>
          <Th isCompact className={TIME_COLUMN}>
            At
          </Th>
          <Th isCompact>Operator</Th>
          <Th isCompact>Action</Th>
          <Th isCompact>Outcome</Th>
          <Th isCompact>Correlation id</Th>
          <Th isCompact>Upstream request id</Th>
          <Th isCompact>Idempotency key</Th>
        </tr>
      </thead>
      <tbody>
        {actions.map((action, index) => (
          <tr key={`${action.at}-${index}`}>
            <Td isCompact>
              <Time value={action.at} canWrap />
            </Td>
            <Td isCompact>{action.operator ?? '—'}</Td>
            <Td isCompact className="font-mono text-xs">
              {action.action}
            </Td>
            <Td isCompact className="text-xs">
              {action.outcome}
            </Td>
            <IdCell value={action.correlationId} label="correlation id" />
            <IdCell value={action.upstreamRequestId} label="upstream request id" />
            <IdCell value={action.idempotencyKey} label="idempotency key" />
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
