import type { FeePlan } from './withdrawal-math';

/**
 * Whether a withdrawal that the available balance covers on its own would not be, once the
 * wallet's open requests (awaiting approval, or approved and not yet sent) are sent too. The
 * upstream reserves nothing for them until then, so the available balance still counts them and
 * the coverage check cannot see them. A native transfer's flat fee comes from the same balance,
 * so it counts, for this withdrawal and for each open request (of the same native asset, so
 * the same fee); a token's fee is paid in the native asset, and a token request's fee limit is
 * not known here, so for a token the answer errs towards silence, never towards a false alarm.
 */
export function exceedsWithOpenRequests(options: {
  amountAtomic: bigint | null;
  isToken: boolean;
  fee: FeePlan | null;
  availableAtomic: bigint;
  committed: { amountAtomic: bigint; count: number };
}): boolean {
  const { amountAtomic, availableAtomic, committed } = options;
  if (amountAtomic === null || committed.count === 0) return false;
  const feeAtomic = !options.isToken && options.fee ? options.fee.feeAtomic : 0n;
  const spendAtomic = amountAtomic + feeAtomic;
  // Over the balance on its own, the coverage check already says so, and blocks.
  if (spendAtomic > availableAtomic) return false;
  const committedAtomic = committed.amountAtomic + BigInt(committed.count) * feeAtomic;
  return spendAtomic + committedAtomic > availableAtomic;
}
