import { chainName, type AssetTotal } from '@settlement/protocol';
import { Amount } from '../../../components/ui/amount';
import { ChainBadge } from '../../../components/ui/chain-badge';

/** What open withdrawal requests (not yet sent upstream) will take of one asset on one chain. */
type AssetCommitment = { chain: string; asset: string; amountAtomic: bigint; count: number };

const rowClass = 'flex flex-wrap items-baseline justify-between gap-x-3';
// The two lines under Available qualify it, so they sit indented beneath it.
const subRowClass = `${rowClass} border-l-2 border-slate-200 pl-2`;

/**
 * Under Available: what open requests already promise of it, and what is left. The upstream
 * reserves nothing until a request is sent, so Available alone overstates what can be promised.
 * When a request list was full the sum is a floor, so what is left is a ceiling.
 */
function OpenRequestLines({
  total,
  committed,
  isAtLeast,
  decimals,
}: {
  total: AssetTotal;
  committed: AssetCommitment;
  isAtLeast: boolean;
  decimals: number | null;
}) {
  const left = BigInt(total.availableAtomic) - committed.amountAtomic;
  const count = isAtLeast ? `${committed.count} or more` : `${committed.count}`;
  return (
    <>
      <div className={subRowClass}>
        <dt className="text-slate-600">In open requests ({count})</dt>
        <dd>
          {isAtLeast ? 'at least ' : ''}
          <Amount atomic={committed.amountAtomic} decimals={decimals} asset={total.asset} />
        </dd>
      </div>
      {left < 0n ? (
        <div className={`${subRowClass} font-medium text-amber-900`}>
          <dt>Open requests exceed available by</dt>
          <dd>
            {isAtLeast ? 'at least ' : ''}
            <Amount atomic={-left} decimals={decimals} asset={total.asset} />
          </dd>
        </div>
      ) : (
        <div className={subRowClass}>
          <dt className="text-slate-600">Not yet promised</dt>
          <dd>
            {isAtLeast ? 'at most ' : ''}
            <Amount atomic={left} decimals={decimals} asset={total.asset} />
          </dd>
        </div>
      )}
    </>
  );
}

/**
 * What the organization holds, one card per asset and chain: available first (what can be sent
 * now) with what open requests already promise of it, then reserved (held for withdrawals in
 * flight) and posted (the ledger balance).
 */
export function Holdings({
  totals,
  decimalsFor,
  openRequests,
}: {
  totals: readonly AssetTotal[];
  decimalsFor: (asset: string) => number | null;
  /**
   * Requests awaiting approval or approved and not yet sent, summed per chain and asset over
   * every wallet; null while unknown; 'unreadable' when a list failed. `isAtLeast`: a list was
   * full, the sums are floors.
   */
  openRequests: { perAsset: readonly AssetCommitment[]; isAtLeast: boolean } | 'unreadable' | null;
}) {
  const known = openRequests === 'unreadable' ? null : openRequests;
  const committedOf = (total: AssetTotal) =>
    known?.perAsset.find((c) => c.chain === total.chain && c.asset === total.asset) ?? null;
  const hasCommitted = totals.some((total) => committedOf(total) !== null);
  return (
    <>
      <ul
        className="grid gap-3 p-4 sm:grid-cols-2 xl:grid-cols-3"
        aria-label="Totals per asset and chain"
      >
        {totals.map((total) => {
          const decimals = decimalsFor(total.asset);
          const committed = committedOf(total);
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
                <div className={rowClass}>
                  <dt className="text-slate-600">Available</dt>
                  <dd className="text-base font-semibold text-slate-900">
                    <Amount
                      atomic={total.availableAtomic}
                      decimals={decimals}
                      asset={total.asset}
                    />
                  </dd>
                </div>
                {committed ? (
                  <OpenRequestLines
                    total={total}
                    committed={committed}
                    isAtLeast={known?.isAtLeast ?? false}
                    decimals={decimals}
                  />
                ) : null}
                <div className={rowClass}>
                  <dt className="text-slate-600">Reserved</dt>
                  <dd>
                    <Amount atomic={total.reservedAtomic} decimals={decimals} asset={total.asset} />
                  </dd>
                </div>
                <div className={rowClass}>
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
      {hasCommitted ? (
        <p role="note" className="px-4 pb-4 text-xs text-slate-600">
          Open requests are withdrawals awaiting approval, or approved and not yet sent. The
          settlement service reserves an amount only once its request is sent, so Available still
          includes them. Their network fees come on top.
          {known?.isAtLeast
            ? ' A list of open requests is full, so there may be more than shown.'
            : ''}
        </p>
      ) : null}
      {/* Said once for every card: showing no lines would read as nothing promised. */}
      {openRequests === 'unreadable' ? (
        <p role="note" className="px-4 pb-4 text-xs text-amber-900">
          Open withdrawal requests could not be read: Available may include money they already
          promise.
        </p>
      ) : null}
    </>
  );
}
