import { isTerminalStatus, type Transaction } from '@settlement/protocol';
import { Amount } from '../../../components/ui/amount';
import { Card, CardFields, CardList } from '../../../components/ui/card-list';
import { CopyableId } from '../../../components/ui/copy-button';
import { ExplorerLink } from '../../../components/ui/explorer-link';
import { DetailList } from '../../../components/ui/page-header';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { WalletName } from '../../../components/ui/wallet-name';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';
import { fundsOutcome } from '../model/funds-outcome';

type Decimals = (asset: string) => number | null;

export function OnChainDetails({ transaction }: { transaction: Transaction }) {
  const details = transaction.onChainDetails;
  if (!details) {
    return <p className="p-4 text-sm text-slate-600">No on-chain details yet (not broadcast).</p>;
  }
  return (
    <DetailList
      items={[
        {
          label: 'Tx hash',
          value: (
            <span className="flex flex-wrap items-center gap-x-2">
              <CopyableId value={details.txHash} label="transaction hash" isShort />
              <ExplorerLink chain={transaction.chain} target="transaction" value={details.txHash} />
            </span>
          ),
        },
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
        {
          label: 'From',
          value: (
            <span className="flex flex-wrap items-center gap-x-2">
              <CopyableId value={details.fromAddress} label="from address" />
              <ExplorerLink
                chain={transaction.chain}
                target="address"
                value={details.fromAddress}
              />
            </span>
          ),
        },
        {
          label: 'To',
          value: (
            <span className="flex flex-wrap items-center gap-x-2">
              <CopyableId value={details.toAddress} label="to address" />
              <ExplorerLink chain={transaction.chain} target="address" value={details.toAddress} />
            </span>
          ),
        },
        { label: 'Broadcast', value: <Time value={details.broadcastAt} /> },
      ]}
    />
  );
}

/** The actual fee, or why there is none: it exists only once the chain included the transfer. */
function missingActualFee(transaction: Transaction): string {
  if (transaction.status === 'FAILED') return 'None: never broadcast, no fee was charged';
  if (transaction.status === 'PENDING') return 'Not charged yet (known once broadcast)';
  return '—';
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
  const amount = (atomic: string | bigint | null) =>
    atomic === null ? '—' : <Amount atomic={atomic} decimals={decimals} asset={fee.asset} />;
  // The ledger is the truth about money: once final, the fee its effects charged must be the
  // actual fee reported; when they differ the operator is told, never shown one silently.
  const charged = isTerminalStatus(transaction.status)
    ? (fundsOutcome(transaction)?.feeSpentAtomic ?? null)
    : null;
  const reported = fee.actualFeeAtomic === null ? 0n : BigInt(fee.actualFeeAtomic);
  const isDisagreeing = charged !== null && charged !== reported;
  return (
    <DetailList
      items={[
        { label: 'Estimate', value: <>{amount(fee.estimatedFeeAtomic)} (estimate)</> },
        { label: 'Reserved', value: amount(fee.reservedFeeAtomic) },
        {
          label: 'Actual',
          value:
            fee.actualFeeAtomic === null ? (
              <span className="text-slate-700">{missingActualFee(transaction)}</span>
            ) : (
              <>{amount(fee.actualFeeAtomic)} (actual, charged on chain)</>
            ),
        },
        { label: 'Fee limit', value: amount(fee.feeLimitAtomic) },
        ...(isDisagreeing
          ? [
              {
                label: 'Balance effects',
                value: (
                  <span role="alert" className="text-red-800">
                    Charged {amount(charged)}, which differs from the actual fee reported.
                  </span>
                ),
              },
            ]
          : []),
      ]}
    />
  );
}

type BalanceEffect = NonNullable<Transaction['balanceEffects']>[number];

/**
 * The balance effects on a phone: in the six-column table the reserved change and the wallet
 * started beyond the right edge.
 */
function BalanceEffectCards({
  effects,
  decimalsFor,
}: {
  effects: readonly BalanceEffect[];
  decimalsFor: Decimals;
}) {
  return (
    <CardList label="Balance effects">
      {effects.map((effect, index) => (
        <Card key={`${effect.at}-${index}`}>
          <p className="flex flex-wrap items-baseline justify-between gap-x-3">
            <span className="text-xs font-medium">
              {effect.kind} {effect.asset}
            </span>
            <Time value={effect.at} />
          </p>
          <CardFields
            fields={[
              [
                'Posted change',
                <Amount atomic={effect.postedDeltaAtomic} decimals={decimalsFor(effect.asset)} />,
              ],
              [
                'Reserved change',
                <Amount atomic={effect.reservedDeltaAtomic} decimals={decimalsFor(effect.asset)} />,
              ],
              ['Wallet', <WalletName walletId={effect.walletId} />],
            ]}
          />
        </Card>
      ))}
    </CardList>
  );
}

export function BalanceEffects({
  transaction,
  decimalsFor,
}: {
  transaction: Transaction;
  decimalsFor: Decimals;
}) {
  const isPhone = useMediaQuery(PHONE_QUERY);
  const effects = transaction.balanceEffects ?? [];
  if (effects.length === 0)
    return <p className="p-4 text-sm text-slate-600">No balance effects yet.</p>;
  if (isPhone) return <BalanceEffectCards effects={effects} decimalsFor={decimalsFor} />;
  const alignDecimals = Math.max(0, ...effects.map((e) => decimalsFor(e.asset) ?? 0));
  return (
    <Table label="Balance effects">
      <thead>
        <tr>
          <Th isCompact>When</Th>
          <Th isCompact>Kind</Th>
          <Th isCompact>Asset</Th>
          <Th isCompact className="text-right">
            Posted change
          </Th>
          <Th isCompact className="text-right">
            Reserved change
          </Th>
          <Th isCompact>Wallet</Th>
        </tr>
      </thead>
      <tbody>
        {effects.map((effect, index) => (
          <tr key={`${effect.at}-${index}`}>
            <Td isCompact>
              <Time value={effect.at} canWrap />
            </Td>
            <Td isCompact className="text-xs font-medium">
              {effect.kind}
            </Td>
            <Td isCompact>{effect.asset}</Td>
            <Td isCompact className="text-right">
              <Amount
                atomic={effect.postedDeltaAtomic}
                decimals={decimalsFor(effect.asset)}
                alignDecimals={alignDecimals}
              />
            </Td>
            <Td isCompact className="text-right">
              <Amount
                atomic={effect.reservedDeltaAtomic}
                decimals={decimalsFor(effect.asset)}
                alignDecimals={alignDecimals}
              />
            </Td>
            <Td isCompact>
              {/* By name, as the summary shows it: a bare id said nothing. Bounded, so a long
                  name truncates (whole on the wallet's page) instead of pushing the column out. */}
              <div className="max-w-52">
                <WalletName walletId={effect.walletId} />
              </div>
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
