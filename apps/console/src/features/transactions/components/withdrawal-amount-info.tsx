import { atomicToDisplay } from '@settlement/protocol';
import type { Asset } from '@settlement/protocol';
import { Amount } from '../../../components/ui/amount';
import type { FeePlan } from '../model/withdrawal-math';

/** What the chosen wallet holds of the chosen asset, and of the native asset paying a token's fee. */
export function AvailableBalance({
  isLoading,
  available,
  asset,
  feeBalance,
}: {
  isLoading: boolean;
  available: bigint;
  asset: Asset | null;
  /** The native balance that pays the fee of a token transfer; null for a native transfer. */
  feeBalance: { atomic: bigint; asset: Asset } | null;
}) {
  return (
    <div className="text-sm" aria-live="polite">
      <p className="font-medium text-slate-800">Available</p>
      {isLoading ? (
        <p className="mt-2 text-slate-600">Loading balance…</p>
      ) : (
        <p className="mt-2">
          <Amount
            atomic={available}
            decimals={asset?.decimals ?? null}
            asset={asset?.asset ?? ''}
            className="text-base font-semibold"
          />
          {feeBalance ? (
            <span className="ml-3 text-slate-600">
              fee balance{' '}
              <Amount
                atomic={feeBalance.atomic}
                decimals={feeBalance.asset.decimals}
                asset={feeBalance.asset.asset}
              />
            </span>
          ) : null}
        </p>
      )}
    </div>
  );
}

/** The network fee (or fee limit) and, for a native transfer, the most that can be sent. */
export function NetworkFeeLine({
  fee,
  chain,
  maxSendable,
}: {
  fee: FeePlan | null;
  chain: string;
  /** Shown for a native transfer once balances are known; null otherwise. */
  maxSendable: bigint | null;
}) {
  if (!fee) {
    return (
      <p className="text-sm text-red-700">
        The catalog lists no native asset for {chain}; the fee cannot be computed.
      </p>
    );
  }
  return (
    <p className="text-sm text-slate-700">
      Network fee: {fee.isFeeLimit ? 'up to ' : ''}
      <Amount atomic={fee.feeAtomic} decimals={fee.feeDecimals} asset={fee.feeAsset} />
      {fee.isFeeLimit ? ' (the fee limit is reserved, the actual fee is usually lower)' : ''}
      {maxSendable !== null ? (
        <span className="text-slate-600">
          {' '}
          · Max sendable {atomicToDisplay(maxSendable, fee.feeDecimals, { grouping: true })}{' '}
          {fee.feeAsset}
        </span>
      ) : null}
    </p>
  );
}
