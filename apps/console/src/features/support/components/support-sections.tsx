import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { CopyableId } from '../../../components/ui/copy-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { eventSummary } from '../../../lib/event-summary';
import type { SupportResult } from '../api/support-search';

function MaybeId({ value, label }: { value: string | null | undefined; label: string }) {
  return value ? (
    <CopyableId value={value} label={label} isShort />
  ) : (
    <span className="text-slate-500">—</span>
  );
}

/**
 * The time column of the compact tables: wide enough for a date on one line and the time on
 * the next, which leaves a 1440 px window room for every id column.
 */
const TIME_COLUMN = 'w-32';

/** One id in a compact cell of the support tables. */
function IdCell(props: { value: string | null | undefined; label: string }) {
  return (
    <Td isCompact>
      <MaybeId {...props} />
    </Td>
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
  if (events.length === 0) return <EmptyState title="No stored events match" />;
  const sorted = [...events].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt));
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
        {sorted.map((event) => {
          const transactionId =
            typeof event.data.transactionId === 'string' ? event.data.transactionId : null;
          const summary = eventSummary(event, decimalsFor);
          return (
            <tr key={event.id}>
              <Td>
                <Time value={event.occurredAt} />
              </Td>
              <Td className="font-mono text-xs">{event.type}</Td>
              <Td className="text-xs">{summary || '—'}</Td>
              <Td>
                {transactionId ? (
                  <Link
                    to={`/transactions/${encodeURIComponent(transactionId)}`}
                    className="font-mono text-xs text-indigo-700 underline"
                  >
                    {transactionId.slice(0, 12)}…
                  </Link>
                ) : (
                  '—'
                )}
              </Td>
              <Td>
                <MaybeId value={event.correlationId} label="correlation id" />
              </Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}

/**
 * The upstream calls, ids first after the call itself: support looks a call up by its
 * correlation id, so that column comes before the request ids, and none of them waits behind a
 * sideways scroll at 1440 px: the operator goes under the call rather than in a column of its
 * own, and an upstream that echoes our request id (the sandbox does) shows "same" rather than
 * the id twice.
 */
export function SupportRequests({ requests }: { requests: SupportResult['requests'] }) {
  if (requests.length === 0) return <EmptyState title="No upstream calls match" />;
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
              <code className="font-mono text-xs whitespace-nowrap">
                {request.method} {request.path}
              </code>
              <span className="ml-1 text-xs whitespace-nowrap text-slate-600 tabular-nums">
                {request.durationMs} ms
              </span>
              {request.operator ? (
                <div className="text-xs text-slate-600">by {request.operator}</div>
              ) : null}
            </Td>
            <Td isCompact>
              {typeof request.status === 'number' ? (
                <Badge
                  tone={
                    request.status < 400 ? 'success' : request.status >= 500 ? 'danger' : 'warning'
                  }
                >
                  {request.status}
                </Badge>
              ) : (
                '—'
              )}
            </Td>
            <IdCell value={request.correlationId} label="correlation id" />
            <IdCell value={request.requestId} label="request id" />
            <Td isCompact>
              {request.upstreamRequestId && request.upstreamRequestId === request.requestId ? (
                <span className="text-xs text-slate-600" title={request.upstreamRequestId}>
                  same<span className="sr-only"> as the request id</span>
                </span>
              ) : (
                <MaybeId value={request.upstreamRequestId} label="upstream request id" />
              )}
            </Td>
            <IdCell value={request.idempotencyKey} label="idempotency key" />
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** An operator's actions, the correlation id first among the ids (as in SupportRequests). */
export function SupportActions({ actions }: { actions: SupportResult['actions'] }) {
  if (actions.length === 0) return <EmptyState title="No operator actions match" />;
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

export function SupportOperations({ operations }: { operations: SupportResult['operations'] }) {
  if (operations.length === 0) return <EmptyState title="No journaled operations match" />;
  return (
    <Table label="Journaled operations">
      <thead>
        <tr>
          <Th isCompact className={TIME_COLUMN}>
            Created
          </Th>
          <Th isCompact>Operation</Th>
          <Th isCompact>State</Th>
          <Th isCompact>Operation id</Th>
          <Th isCompact>Idempotency key</Th>
          <Th isCompact>Client reference</Th>
          <Th isCompact>Upstream request id</Th>
        </tr>
      </thead>
      <tbody>
        {operations.map((operation) => (
          <tr key={operation.operationId}>
            <Td isCompact>
              <Time value={operation.createdAt} canWrap />
            </Td>
            {/* The operator under the operation, as in the calls table: eight columns did not
                fit a 1440 px window, and the ids are what support looks operations up by. */}
            <Td isCompact>
              <code className="font-mono text-xs">{operation.operation}</code>
              <div className="text-xs text-slate-600">by {operation.operator}</div>
            </Td>
            <Td isCompact>
              <Badge
                tone={
                  operation.state === 'succeeded'
                    ? 'success'
                    : operation.state === 'failed'
                      ? 'danger'
                      : 'warning'
                }
              >
                {operation.state}
                {typeof operation.status === 'number' ? ` · ${operation.status}` : ''}
              </Badge>
            </Td>
            <IdCell value={operation.operationId} label="operation id" />
            <IdCell value={operation.idempotencyKey} label="idempotency key" />
            <IdCell value={operation.clientReference} label="client reference" />
            <IdCell value={operation.upstreamRequestId} label="upstream request id" />
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
