import { atomicToDisplay } from '@settlement/protocol';
import type { Asset } from '@settlement/protocol';
import { Amount } from '../../../components/ui/amount';
import type { FeePlan } from '../model/withdrawal-math';

/**
 * What open withdrawal requests from the chosen wallet (awaiting approval, or approved and not
 * yet sent) take of the chosen asset. `isAtLeast`: a request list was full, so there may be more.
 */
type Committed = { amountAtomic: bigint; count: number; isAtLeast: boolean };

/** "1 open request", "2 open requests", "2 or more open requests" when a list was full. */
function openRequestCount({ count, isAtLeast }: Committed): string {
  if (isAtLeast) return `${count} or more open requests`;
  return count === 1 ? '1 open request' : `${count} open requests`;
}

/**
 * What the chosen wallet holds of the chosen asset, and of the native asset paying a token's
 * fee; then what its open requests already promise of it, since the upstream reserves nothing
 * for a request until it is sent.
 */
export function AvailableBalance({
  isLoading,
  available,
  asset,
  feeBalance,
  committed,
}: {
  isLoading: boolean;
  available: bigint;
  asset: Asset | null;
  /** The native balance that pays the fee of a token transfer; null for a native transfer. */
  feeBalance: { atomic: bigint; asset: Asset } | null;
  /** Null while the open requests are unknown; 'unreadable' when their lists failed. */
  committed: Committed | 'unreadable' | null;
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
      {!isLoading && committed === 'unreadable' ? (
        <p className="mt-1 text-xs text-amber-900">
          The open requests from this wallet could not be read: Available may include money they
          already promise.
        </p>
      ) : null}
      {!isLoading && committed && committed !== 'unreadable' && committed.count > 0 ? (
        <p className="mt-1 text-slate-700">
          {openRequestCount(committed)} from this wallet: {committed.isAtLeast ? 'at least ' : ''}
          <Amount
            atomic={committed.amountAtomic}
            decimals={asset?.decimals ?? null}
            asset={asset?.asset ?? ''}
          />
          <span className="block text-xs text-slate-600">
            Awaiting approval or approved, not yet sent: still counted in Available.
          </span>
        </p>
      ) : null}
    </div>
  );
}

/**
 * Shown, not enforced, when this withdrawal fits the available balance but not beside the
 * wallet's open requests: a request awaiting approval may yet be rejected.
 */
export function OpenRequestsWarning({
  committed,
  asset,
  nativeFee,
}: {
  committed: Committed;
  asset: Asset;
  /** A native transfer's fee, paid from the same balance (each open request's too); null for a token. */
  nativeFee: FeePlan | null;
}) {
  return (
    <p
      role="note"
      className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
    >
      With the {openRequestCount(committed)} from this wallet (
      {committed.isAtLeast ? 'at least ' : ''}
      <Amount atomic={committed.amountAtomic} decimals={asset.decimals} asset={asset.asset} />
      {nativeFee ? ' and their fees' : ''}), this
      {nativeFee ? (
        <>
          {' '}
          and its{' '}
          <Amount
            atomic={nativeFee.feeAtomic}
            decimals={nativeFee.feeDecimals}
            asset={nativeFee.feeAsset}
          />{' '}
          fee
        </>
      ) : null}{' '}
      would exceed the available balance: whichever is sent last would fail.
    </p>
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
