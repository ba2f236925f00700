import type { MpcStatus } from '@settlement/protocol';
import { Badge, StatusBadge } from '../../../components/ui/badge';
import { ChainBadge } from '../../../components/ui/chain-badge';
import { CopyableId } from '../../../components/ui/copy-button';
import { DetailList } from '../../../components/ui/page-header';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { formatRelative } from '../../../lib/format-time';

/** The live MPC status: key, Co-Signer, and readiness per chain. */
export function ReadinessPanel({ status }: { status: MpcStatus }) {
  return (
    <>
      <DetailList
        items={[
          {
            label: 'Key status',
            value: status.keyStatus ? (
              <StatusBadge status={status.keyStatus} />
            ) : (
              <Badge tone="neutral">Not initialized</Badge>
            ),
          },
          {
            label: 'Key id',
            value: status.keyId ? <CopyableId value={status.keyId} label="key id" /> : '—',
          },
          { label: 'Co-Signer', value: <StatusBadge status={status.coSigner.status} /> },
          {
            label: 'Last seen',
            value: status.coSigner.lastSeenAt ? (
              <span>
                <Time value={status.coSigner.lastSeenAt} />{' '}
                <span className="text-slate-600">
                  ({formatRelative(status.coSigner.lastSeenAt)})
                </span>
              </span>
            ) : (
              'Never'
            ),
          },
        ]}
      />
      <Table label="Chain readiness">
        <thead>
          <tr>
            <Th>Chain</Th>
            <Th>Ready</Th>
            <Th>Reason</Th>
          </tr>
        </thead>
        <tbody>
          {status.chains.map((chain) => (
            <tr key={chain.chain}>
              <Td>
                <span className="flex flex-wrap items-center gap-1.5">
                  <span className="font-mono text-xs">{chain.chain}</span>
                  <ChainBadge chain={chain.chain} />
                </span>
              </Td>
              <Td>
                {chain.ready ? (
                  <Badge tone="success">Ready</Badge>
                ) : (
                  <Badge tone="warning">Not ready</Badge>
                )}
              </Td>
              <Td className="text-slate-700">{chain.reason ?? '—'}</Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </>
  );
}
