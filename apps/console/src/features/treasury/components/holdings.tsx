import { chainName, type AssetTotal } from '@settlement/protocol';
import { Amount } from '../../../components/ui/amount';
import { ChainBadge } from '../../../components/ui/chain-badge';

/**
 * What the organization holds, one card per asset and chain: available first (what can be sent
 * now), then reserved (held for withdrawals in flight) and posted (the ledger balance).
 */
export function Holdings({
  totals,
  decimalsFor,
}: {
  totals: readonly AssetTotal[];
  decimalsFor: (asset: string) => number | null;
}) {
  return (
    <ul
      className="grid gap-3 p-4 sm:grid-cols-2 xl:grid-cols-3"
      aria-label="Totals per asset and chain"
    >
      {totals.map((total) => {
        const decimals = decimalsFor(total.asset);
        return (
          <li
            key={`${total.chain}-${total.asset}`}
            className="min-w-0 rounded-md border border-slate-200 p-3"
          >
            <p className="flex flex-wrap items-center gap-2 text-sm font-semibold text-slate-900">
              {total.asset} on {chainName(total.chain)}
              <ChainBadge chain={total.chain} />
            </p>
            <dl className="mt-2 space-y-1 text-sm">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                <dt className="text-slate-600">Available</dt>
                <dd className="text-base font-semibold text-slate-900">
                  <Amount atomic={total.availableAtomic} decimals={decimals} asset={total.asset} />
                </dd>
              </div>
              <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                <dt className="text-slate-600">Reserved</dt>
                <dd>
                  <Amount atomic={total.reservedAtomic} decimals={decimals} asset={total.asset} />
                </dd>
              </div>
              <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                <dt className="text-slate-600">Posted</dt>
                <dd>
                  <Amount atomic={total.postedAtomic} decimals={decimals} asset={total.asset} />
                </dd>
              </div>
            </dl>
            <p className="mt-2 text-xs text-slate-600">
              {total.walletCount === 1 ? '1 wallet' : `${total.walletCount} wallets`}
            </p>
          </li>
        );
      })}
    </ul>
  );
}
