import type { Transaction } from '@settlement/protocol';

/**
 * What a transaction did to its wallet's money, read from its balance effects (the ledger), not
 * from its status or fee summary: those only say what should have happened.
 */

export type AssetOutcome = {
  asset: string;
  /** Put on hold for the transaction (amount and fee reserve). */
  reservedAtomic: bigint;
  /** Still on hold (a live transaction). */
  heldAtomic: bigint;
  /** Gone from the posted balance: debited or burned as fee. */
  spentAtomic: bigint;
  /** Held, then given back to the available balance. */
  returnedAtomic: bigint;
};

export type FundsOutcome = {
  assets: AssetOutcome[];
  /** Whether the transaction's amount left the wallet. */
  isAmountDebited: boolean;
  /** The network fee the effects charged (null: no fee summary, so no fee asset known). */
  feeSpentAtomic: bigint | null;
  feeAsset: string | null;
};

export function isFailedStatus(status: string): boolean {
  return status === 'FAILED' || status === 'FAILED_ON_CHAIN';
}

function assetOutcomes(transaction: Transaction): AssetOutcome[] {
  const byAsset = new Map<string, AssetOutcome>();
  for (const effect of transaction.balanceEffects ?? []) {
    const outcome = byAsset.get(effect.asset) ?? {
      asset: effect.asset,
      reservedAtomic: 0n,
      heldAtomic: 0n,
      spentAtomic: 0n,
      returnedAtomic: 0n,
    };
    const reserved = BigInt(effect.reservedDeltaAtomic);
    if (reserved > 0n) outcome.reservedAtomic += reserved;
    outcome.heldAtomic += reserved;
    outcome.spentAtomic -= BigInt(effect.postedDeltaAtomic);
    byAsset.set(effect.asset, outcome);
  }
  return [...byAsset.values()].map((outcome) => {
    const returned = outcome.reservedAtomic - outcome.heldAtomic - outcome.spentAtomic;
    return { ...outcome, returnedAtomic: returned > 0n ? returned : 0n };
  });
}

/** The outgoing side of a withdrawal or transfer; a credit (deposit, destination leg) has none. */
export function fundsOutcome(transaction: Transaction): FundsOutcome | null {
  if (transaction.direction === 'CREDIT' || transaction.type === 'DEPOSIT') return null;
  const assets = assetOutcomes(transaction);
  const spentOf = (asset: string) => assets.find((a) => a.asset === asset)?.spentAtomic ?? 0n;
  const amount = BigInt(transaction.amountAtomic);
  const feeAsset = transaction.networkFeeSummary?.asset ?? null;
  // A failed transaction never moves its amount (the interface's FAILED voids the reservation;
  // FAILED_ON_CHAIN reverts), so whatever left the fee asset then is fee alone.
  const isAmountDebited =
    !isFailedStatus(transaction.status) && spentOf(transaction.asset) >= amount;
  let feeSpentAtomic: bigint | null = null;
  if (feeAsset !== null) {
    const shared = feeAsset === transaction.asset && isAmountDebited ? amount : 0n;
    feeSpentAtomic = spentOf(feeAsset) - shared;
  }
  return { assets, isAmountDebited, feeSpentAtomic, feeAsset };
}
