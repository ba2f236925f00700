import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { CopyableId } from '../../../components/ui/copy-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import type { SupportResult } from '../api/support-search';

function MaybeId({ value, label }: { value: string | null | undefined; label: string }) {
  return value ? (
    <CopyableId value={value} label={label} isShort />
  ) : (
    <span className="text-slate-500">—</span>
  );
}

export function SupportEvents({ events }: { events: SupportResult['events'] }) {
  if (events.length === 0) return <EmptyState title="No stored events match" />;
  const sorted = [...events].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt));
  return (
    <Table label="Events in time order">
      <thead>
        <tr>
          <Th>Occurred</Th>
          <Th>Type</Th>
          <Th>Status</Th>
          <Th>Transaction</Th>
          <Th>Correlation id</Th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((event) => {
          const transactionId =
            typeof event.data.transactionId === 'string' ? event.data.transactionId : null;
          const status = typeof event.data.status === 'string' ? event.data.status : null;
          return (
            <tr key={event.id}>
              <Td>
                <Time value={event.occurredAt} />
              </Td>
              <Td className="font-mono text-xs">{event.type}</Td>
              <Td className="text-xs">{status ?? '—'}</Td>
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

export function SupportRequests({ requests }: { requests: SupportResult['requests'] }) {
  if (requests.length === 0) return <EmptyState title="No upstream calls match" />;
  return (
    <Table label="Upstream calls">
      <thead>
        <tr>
          <Th>At</Th>
          <Th>Operator</Th>
          <Th>Call</Th>
          <Th>Status</Th>
          <Th>Request id</Th>
          <Th>Upstream request id</Th>
          <Th>Correlation id</Th>
          <Th>Idempotency key</Th>
        </tr>
      </thead>
      <tbody>
        {requests.map((request, index) => (
          <tr key={`${request.at}-${request.requestId}-${String(index)}`}>
            <Td>
              <Time value={request.at} />
            </Td>
            <Td>{request.operator ?? '—'}</Td>
            <Td>
              <code className="font-mono text-xs whitespace-nowrap">
                {request.method} {request.path}
              </code>
              {typeof request.durationMs === 'number' ? (
                <span className="ml-1 text-xs text-slate-600 tabular-nums">
                  {request.durationMs} ms
                </span>
              ) : null}
            </Td>
            <Td>
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
            <Td>
              <MaybeId value={request.requestId} label="request id" />
            </Td>
            <Td>
              <MaybeId value={request.upstreamRequestId} label="upstream request id" />
            </Td>
            <Td>
              <MaybeId value={request.correlationId} label="correlation id" />
            </Td>
            <Td>
              <MaybeId value={request.idempotencyKey} label="idempotency key" />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

export function SupportActions({ actions }: { actions: SupportResult['actions'] }) {
  if (actions.length === 0) return <EmptyState title="No operator actions match" />;
  return (
    <Table label="Operator actions">
      <thead>
        <tr>
          <Th>At</Th>
          <Th>Operator</Th>
          <Th>Action</Th>
          <Th>Outcome</Th>
          <Th>Idempotency key</Th>
          <Th>Upstream request id</Th>
          <Th>Correlation id</Th>
        </tr>
      </thead>
      <tbody>
        {actions.map((action, index) => (
          <tr key={`${action.at}-${index}`}>
            <Td>
              <Time value={action.at} />
            </Td>
            <Td>{action.operator ?? '—'}</Td>
            <Td className="font-mono text-xs">{action.action}</Td>
            <Td className="text-xs">{action.outcome}</Td>
            <Td>
              <MaybeId value={action.idempotencyKey} label="idempotency key" />
            </Td>
            <Td>
              <MaybeId value={action.upstreamRequestId} label="upstream request id" />
            </Td>
            <Td>
              <MaybeId value={action.correlationId} label="correlation id" />
            </Td>
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
          <Th>Created</Th>
          <Th>Operator</Th>
          <Th>Operation</Th>
          <Th>State</Th>
          <Th>Operation id</Th>
          <Th>Idempotency key</Th>
          <Th>Client reference</Th>
          <Th>Upstream request id</Th>
        </tr>
      </thead>
      <tbody>
        {operations.map((operation) => (
          <tr key={operation.operationId}>
            <Td>
              <Time value={operation.createdAt} />
            </Td>
            <Td>{operation.operator}</Td>
            <Td className="font-mono text-xs">{operation.operation}</Td>
            <Td>
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
            <Td>
              <MaybeId value={operation.operationId} label="operation id" />
            </Td>
            <Td>
              <MaybeId value={operation.idempotencyKey} label="idempotency key" />
            </Td>
            <Td>
              <MaybeId value={operation.clientReference} label="client reference" />
            </Td>
            <Td>
              <MaybeId value={operation.upstreamRequestId} label="upstream request id" />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
