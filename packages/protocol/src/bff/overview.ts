import { z } from 'zod/mini';
import { AtomicAmountSchema } from '../amounts';
import { BalanceSchema, type Balance } from '../schemas/balance';
import { ChainSchema, TimestampSchema } from '../schemas/common';
import { WalletStatusSchema } from '../schemas/wallet';

/**
 * `GET /bff/overview`: what the organization holds and what is in flight, aggregated by the BFF
 * from every wallet's balances and the pending withdrawals (one call for the console instead of
 * one per wallet). The upstream interface has no such resource.
 */

/** Posted, reserved and available of one asset on one chain, summed over wallets. */
export const AssetTotalSchema = z.lazy(() =>
  z.object({
    asset: z.string(),
    chain: ChainSchema,
    postedAtomic: AtomicAmountSchema,
    reservedAtomic: AtomicAmountSchema,
    availableAtomic: AtomicAmountSchema,
    walletCount: z.int().check(z.nonnegative()),
  }),
);
export type AssetTotal = z.infer<typeof AssetTotalSchema>;

export const OverviewWalletSchema = z.lazy(() =>
  z.object({
    id: z.string(),
    accountId: z.string(),
    accountName: z.string(),
    chain: ChainSchema,
    address: z.string(),
    status: WalletStatusSchema,
    /** The treasury's label (GET /bff/wallet-labels), null when none was set. */
    label: z.nullable(z.string()),
    /** Null when the wallet's balances could not be read (the totals then leave it out). */
    balances: z.nullable(z.array(BalanceSchema)),
  }),
);
export type OverviewWallet = z.infer<typeof OverviewWalletSchema>;

export const InFlightTotalSchema = z.lazy(() =>
  z.object({
    asset: z.string(),
    chain: ChainSchema,
    amountAtomic: AtomicAmountSchema,
    count: z.int().check(z.nonnegative()),
  }),
);
export type InFlightTotal = z.infer<typeof InFlightTotalSchema>;

export const InFlightTransactionSchema = z.lazy(() =>
  z.object({
    id: z.string(),
    walletId: z.string(),
    asset: z.string(),
    chain: ChainSchema,
    amountAtomic: AtomicAmountSchema,
    createdAt: TimestampSchema,
  }),
);

export const OverviewSchema = z.lazy(() =>
  z.object({
    generatedAt: TimestampSchema,
    totals: z.array(AssetTotalSchema),
    wallets: z.array(OverviewWalletSchema),
    /** True when the organization has more wallets than the overview reads (totals are partial). */
    isPartial: z.boolean(),
    /** Wallets whose balances could not be read (their amounts are missing from the totals). */
    unreadWallets: z.int().check(z.nonnegative()),
    inFlight: z.object({
      count: z.int().check(z.nonnegative()),
      /** The oldest PENDING withdrawal's creation time; its age is now minus this. */
      oldestCreatedAt: z.nullable(TimestampSchema),
      totals: z.array(InFlightTotalSchema),
      /** The oldest few, oldest first, to link from the overview. */
      oldest: z.array(InFlightTransactionSchema),
    }),
  }),
);
export type Overview = z.infer<typeof OverviewSchema>;

function keyOf(asset: string, chain: string): string {
  return `${chain}\u0000${asset}`;
}

/**
 * Sums balances per asset and chain with bigint arithmetic (never Number: amounts exceed 2^53).
 * Sorted by chain, then asset, so the overview reads the same on every load.
 */
export function sumBalances(perWallet: readonly (readonly Balance[])[]): AssetTotal[] {
  const sums = new Map<
    string,
    { asset: string; chain: Balance['chain']; p: bigint; r: bigint; a: bigint; n: number }
  >();
  for (const balances of perWallet) {
    for (const b of balances) {
      const key = keyOf(b.asset, b.chain);
      const sum = sums.get(key) ?? { asset: b.asset, chain: b.chain, p: 0n, r: 0n, a: 0n, n: 0 };
      sum.p += BigInt(b.postedBalance);
      sum.r += BigInt(b.reservedBalance);
      sum.a += BigInt(b.availableBalance);
      sum.n += 1;
      sums.set(key, sum);
    }
  }
  return [...sums.values()]
    .sort((x, y) => x.chain.localeCompare(y.chain) || x.asset.localeCompare(y.asset))
    .map((s) => ({
      asset: s.asset,
      chain: s.chain,
      postedAtomic: s.p.toString(),
      reservedAtomic: s.r.toString(),
      availableAtomic: s.a.toString(),
      walletCount: s.n,
    }));
}

/** Sums in-flight amounts per asset and chain (bigint), sorted like sumBalances. */
export function sumInFlight(
  items: readonly { asset: string; chain: Balance['chain']; amountAtomic: string }[],
): InFlightTotal[] {
  const sums = new Map<string, InFlightTotal & { sum: bigint }>();
  for (const item of items) {
    const key = keyOf(item.asset, item.chain);
    const sum = sums.get(key) ?? {
      asset: item.asset,
      chain: item.chain,
      amountAtomic: '0',
      count: 0,
      sum: 0n,
    };
    sum.sum += BigInt(item.amountAtomic);
    sum.count += 1;
    sums.set(key, sum);
  }
  return [...sums.values()]
    .sort((x, y) => x.chain.localeCompare(y.chain) || x.asset.localeCompare(y.asset))
    .map(({ sum, ...rest }) => ({ ...rest, amountAtomic: sum.toString() }));
}
