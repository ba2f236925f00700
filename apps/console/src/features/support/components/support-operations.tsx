import type { SupportOperation } from '@settlement/protocol';
import { Badge } from '../../../components/ui/badge';
import { Card, CardFields, CardList } from '../../../components/ui/card-list';
import { EmptyState } from '../../../components/ui/empty-state';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';
import type { SupportResult } from '../api/support-search';
import { IdCell, TIME_COLUMN, TITLE_LINE, idField } from './support-cells';

/** The operation and, under it, its operator. */
function OperationName({ operation }: { operation: SupportOperation }) {
  return (
    <>
      <code className="font-mono text-xs">{operation.operation}</code>
      <div className="text-xs text-slate-600">by {operation.operator}</div>
    </>
  );
}

function OperationState({ operation }: { operation: SupportOperation }) {
  const { state, status } = operation;
  return (
    <Badge tone={state === 'succeeded' ? 'success' : state === 'failed' ? 'danger' : 'warning'}>
      {state}
      {typeof status === 'number' ? ` · ${status}` : ''}
    </Badge>
  );
}

function OperationCards({ operations }: { operations: SupportResult['operations'] }) {
  return (
    <CardList label="Journaled operations">
      {operations.map((operation) => (
        <Card key={operation.operationId}>
          <div className={TITLE_LINE}>
            <div className="min-w-0 break-all">
              <OperationName operation={operation} />
            </div>
            <OperationState operation={operation} />
          </div>
          <CardFields
            fields={[
              ['Created', <Time value={operation.createdAt} />],
              idField('operation id', operation.operationId),
              idField('idempotency key', operation.idempotencyKey),
              idField('client reference', operation.clientReference),
              idField('upstream request id', operation.upstreamRequestId),
            ]}
          />
        </Card>
      ))}
    </CardList>
  );
}

export function SupportOperations({ operations }: { operations: SupportResult['operations'] }) {
  const isPhone = useMediaQuery(PHONE_QUERY);
  if (operations.length === 0) return <EmptyState title="No journaled operations match" />;
  if (isPhone) return <OperationCards operations={operations} />;
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
              <OperationName operation={operation} />
            </Td>
            <Td isCompact>
              <OperationState operation={operation} />
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
