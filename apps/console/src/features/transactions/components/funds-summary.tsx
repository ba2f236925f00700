import { isTerminalStatus, type Transaction } from '@settlement/protocol';
import { Amount } from '../../../components/ui/amount';
import { DetailList } from '../../../components/ui/page-header';
import { fundsOutcome, isFailedStatus, type AssetOutcome } from '../model/funds-outcome';

type Decimals = (asset: string) => number | null;

function AmountList({
  outcomes,
  pick,
  decimalsFor,
}: {
  outcomes: AssetOutcome[];
  pick: (outcome: AssetOutcome) => bigint;
  decimalsFor: Decimals;
}) {
  return (
    <ul className="space-y-0.5">
      {outcomes.map((outcome) => (
        <li key={outcome.asset}>
          <Amount
            atomic={pick(outcome)}
            decimals={decimalsFor(outcome.asset)}
            asset={outcome.asset}
          />
        </li>
      ))}
    </ul>
  );
}

/**
 * Where the money of an outgoing transaction went, from its balance effects: debited or not,
 * the network fee spent, what went back to the available balance and what is still on hold.
 */
export function FundsSummary({
  transaction: tx,
  decimalsFor,
}: {
  transaction: Transaction;
  decimalsFor: Decimals;
}) {
  const outcome = fundsOutcome(tx);
  if (!outcome) {
    return <p className="p-4 text-sm text-slate-600">Incoming: nothing left this wallet.</p>;
  }
  const isLive = !isTerminalStatus(tx.status);
  const isFailed = isFailedStatus(tx.status);
  const returned = outcome.assets.filter((a) => a.returnedAtomic > 0n);
  const held = outcome.assets.filter((a) => a.heldAtomic > 0n);
  const amount = (
    <Amount atomic={tx.amountAtomic} decimals={decimalsFor(tx.asset)} asset={tx.asset} />
  );
  const fee =
    outcome.feeSpentAtomic === null || outcome.feeAsset === null ? null : (
      <Amount
        atomic={outcome.feeSpentAtomic}
        decimals={decimalsFor(outcome.feeAsset)}
        asset={outcome.feeAsset}
      />
    );
  const hasFee = outcome.feeSpentAtomic !== null && outcome.feeSpentAtomic > 0n;

  return (
    <>
      {isFailed ? (
        <p className="border-b border-slate-100 p-4 text-sm font-medium text-slate-900">
          Not debited: the amount never left the wallet.{' '}
          {hasFee
            ? 'The network fee below was burned on chain.'
            : 'No network fee was spent: the transaction was never broadcast.'}
        </p>
      ) : null}
      <DetailList
        items={[
          {
            label: 'Amount',
            value: (
              <span className="flex flex-wrap items-baseline gap-2">
                {amount}
                <span className="text-slate-600">
                  {outcome.isAmountDebited
                    ? 'debited'
                    : isLive
                      ? 'reserved, not debited yet'
                      : 'not debited'}
                </span>
              </span>
            ),
          },
          {
            label: 'Network fee spent',
            value: hasFee ? fee : isLive ? 'None yet' : 'None',
          },
          {
            label: 'Returned to available',
            value:
              returned.length > 0 ? (
                <AmountList
                  outcomes={returned}
                  pick={(a) => a.returnedAtomic}
                  decimalsFor={decimalsFor}
                />
              ) : isLive ? (
                'Nothing yet'
              ) : (
                'Nothing'
              ),
          },
          ...(held.length > 0
            ? [
                {
                  label: 'Still reserved',
                  value: (
                    <AmountList
                      outcomes={held}
                      pick={(a) => a.heldAtomic}
                      decimalsFor={decimalsFor}
                    />
                  ),
                },
              ]
            : []),
        ]}
      />
    </>
  );
}
