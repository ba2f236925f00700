import type { Transaction } from '@settlement/protocol';
import { Amount } from '../../../components/ui/amount';
import { CopyableId } from '../../../components/ui/copy-button';
import { DetailList } from '../../../components/ui/page-header';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';

type Decimals = (asset: string) => number | null;

export function OnChainDetails({ transaction }: { transaction: Transaction }) {
  const details = transaction.onChainDetails;
  if (!details) {
    return <p className="p-4 text-sm text-slate-600">No on-chain details yet (not broadcast).</p>;
  }
  return (
    <DetailList
      items={[
        { label: 'Tx hash', value: <CopyableId value={details.txHash} label="transaction hash" /> },
        {
          label: 'Confirmations',
          value: (
            <span className="tabular-nums">
              {Math.min(details.confirmations, details.requiredConfirmations)}/
              {details.requiredConfirmations}
            </span>
          ),
        },
        {
          label: 'Block',
          value: <span className="tabular-nums">{details.blockNumber ?? '—'}</span>,
        },
        { label: 'From', value: <CopyableId value={details.fromAddress} label="from address" /> },
        { label: 'To', value: <CopyableId value={details.toAddress} label="to address" /> },
        { label: 'Broadcast', value: <Time value={details.broadcastAt} /> },
      ]}
    />
  );
}

export function NetworkFee({
  transaction,
  decimalsFor,
}: {
  transaction: Transaction;
  decimalsFor: Decimals;
}) {
  const fee = transaction.networkFeeSummary;
  if (!fee)
    return <p className="p-4 text-sm text-slate-600">No network fee for this transaction.</p>;
  const decimals = decimalsFor(fee.asset);
  const amount = (atomic: string | null) =>
    atomic === null ? '—' : <Amount atomic={atomic} decimals={decimals} asset={fee.asset} />;
  return (
    <DetailList
      items={[
        { label: 'Estimated', value: amount(fee.estimatedFeeAtomic) },
        { label: 'Reserved', value: amount(fee.reservedFeeAtomic) },
        { label: 'Actual', value: amount(fee.actualFeeAtomic) },
        { label: 'Fee limit', value: amount(fee.feeLimitAtomic) },
      ]}
    />
  );
}

export function BalanceEffects({
  transaction,
  decimalsFor,
}: {
  transaction: Transaction;
  decimalsFor: Decimals;
}) {
  const effects = transaction.balanceEffects ?? [];
  if (effects.length === 0)
    return <p className="p-4 text-sm text-slate-600">No balance effects yet.</p>;
  return (
    <Table label="Balance effects">
      <thead>
        <tr>
          <Th>When</Th>
          <Th>Kind</Th>
          <Th>Asset</Th>
          <Th className="text-right">Posted change</Th>
          <Th className="text-right">Reserved change</Th>
          <Th>Wallet</Th>
        </tr>
      </thead>
      <tbody>
        {effects.map((effect, index) => (
          <tr key={`${effect.at}-${index}`}>
            <Td>
              <Time value={effect.at} />
            </Td>
            <Td className="text-xs font-medium">{effect.kind}</Td>
            <Td>{effect.asset}</Td>
            <Td className="text-right">
              <Amount atomic={effect.postedDeltaAtomic} decimals={decimalsFor(effect.asset)} />
            </Td>
            <Td className="text-right">
              <Amount atomic={effect.reservedDeltaAtomic} decimals={decimalsFor(effect.asset)} />
            </Td>
            <Td>
              <CopyableId value={effect.walletId} label="wallet id" isShort />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
