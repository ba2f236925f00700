import {
  WITHDRAWAL_REQUEST_LIST_MAX,
  type Chain,
  type WithdrawalRequest,
} from '@settlement/protocol';

/**
 * Withdrawal requests not yet sent upstream: awaiting approval, or approved and being sent. The
 * upstream reserves nothing for them until the BFF submits them, so a wallet's available
 * balance still counts their amounts: money a treasurer must not promise twice.
 */
export type OpenRequests = {
  items: readonly WithdrawalRequest[];
  /**
   * True when a status's list was full (the BFF lists the newest 200 of a status): there may be
   * more, so every sum below is at least what it says.
   */
  isAtLeast: boolean;
};

/** What open requests will take of one asset: their amounts (never a network fee) and count. */
export type Commitment = { amountAtomic: bigint; count: number };

export type AssetCommitment = Commitment & { chain: Chain; asset: string };

/** The open requests of both lists; null until both are read. */
export function openRequestsOf(
  awaiting: readonly WithdrawalRequest[] | undefined,
  approved: readonly WithdrawalRequest[] | undefined,
): OpenRequests | null {
  if (!awaiting || !approved) return null;
  return {
    items: [...approved, ...awaiting],
    isAtLeast:
      awaiting.length >= WITHDRAWAL_REQUEST_LIST_MAX ||
      approved.length >= WITHDRAWAL_REQUEST_LIST_MAX,
  };
}

/** Open requests that debit `asset` from one wallet, leaving out `exceptId` (the one in hand). */
export function committedFor(
  open: OpenRequests,
  walletId: string,
  asset: string,
  exceptId?: string,
): Commitment {
  let amountAtomic = 0n;
  let count = 0;
  for (const request of open.items) {
    if (request.walletId !== walletId || request.asset !== asset || request.id === exceptId)
      continue;
    amountAtomic += BigInt(request.amountAtomic);
    count += 1;
  }
  return { amountAtomic, count };
}

/** Per asset and chain over every wallet, sorted by chain then asset as the overview's totals. */
export function committedPerAsset(open: OpenRequests): AssetCommitment[] {
  const sums = new Map<string, AssetCommitment>();
  for (const request of open.items) {
    const key = `${request.chain}\u0000${request.asset}`;
    const sum = sums.get(key) ?? {
      chain: request.chain,
      asset: request.asset,
      amountAtomic: 0n,
      count: 0,
    };
    sum.amountAtomic += BigInt(request.amountAtomic);
    sum.count += 1;
    sums.set(key, sum);
  }
  return [...sums.values()].sort(
    (x, y) => x.chain.localeCompare(y.chain) || x.asset.localeCompare(y.asset),
  );
}
