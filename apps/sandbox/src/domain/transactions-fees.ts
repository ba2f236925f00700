import { FEE_LIMIT_MAX_ATOMIC, FEE_LIMIT_MIN_ATOMIC, parseAtomic } from '@settlement/protocol';

/**
 * Network fee policy of the simulated TRON chain (documented in apps/sandbox/README.md).
 * Fees are paid in the chain's native asset TRX.
 *
 * - Native TRX transfer: estimated, reserved and actual fee are all 1.1 TRX. A fee limit is
 *   not accepted for it (INVALID_FEE_LIMIT).
 * - TRC-20 transfer (USDT): `chainParams.feeLimitAtomic`, 1..15,000 TRX in sun (default 30 TRX),
 *   is reserved in full; the actual fee is 13.45 TRX, or the fee limit when that is lower.
 * - The actual fee exists only once the chain included the transfer (broadcast): a transaction
 *   that FAILS before broadcast consumes none; FAILED_ON_CHAIN consumes it (energy is burnt
 *   even when the contract reverts). Until broadcast the quote is an estimate.
 */
const FEE_ASSET = 'TRX';
const NATIVE_TRANSFER_FEE_ATOMIC = 1_100_000n;
const TRC20_DEFAULT_FEE_LIMIT_ATOMIC = 30_000_000n;
const TRC20_ACTUAL_FEE_ATOMIC = 13_450_000n;

type FeeQuote = {
  asset: string;
  estimatedFeeAtomic: bigint;
  reservedFeeAtomic: bigint;
  feeLimitAtomic: bigint | null;
};

/**
 * The fee the simulated chain burns when it includes a transfer. Only TRC-20 transfers carry a
 * fee limit (a native transfer refuses one), so the limit alone tells the two apart.
 */
export function burnedFee(feeLimitAtomic: bigint | null): bigint {
  if (feeLimitAtomic === null) return NATIVE_TRANSFER_FEE_ATOMIC;
  return TRC20_ACTUAL_FEE_ATOMIC < feeLimitAtomic ? TRC20_ACTUAL_FEE_ATOMIC : feeLimitAtomic;
}

export type FeeQuoteResult = { ok: true; quote: FeeQuote } | { ok: false; message: string };

/**
 * The fee of one transfer. `isToken` is true for TRC-20 assets (a contract address in the
 * catalog). `feeLimitAtomic` is the raw `chainParams.feeLimitAtomic`, already a valid atomic
 * string or undefined.
 */
export function quoteFee(isToken: boolean, feeLimitAtomic: string | undefined): FeeQuoteResult {
  if (!isToken) {
    if (feeLimitAtomic !== undefined) {
      return { ok: false, message: 'chainParams.feeLimitAtomic applies to TRC-20 assets only.' };
    }
    return {
      ok: true,
      quote: {
        asset: FEE_ASSET,
        estimatedFeeAtomic: burnedFee(null),
        reservedFeeAtomic: NATIVE_TRANSFER_FEE_ATOMIC,
        feeLimitAtomic: null,
      },
    };
  }
  const limit =
    feeLimitAtomic === undefined ? TRC20_DEFAULT_FEE_LIMIT_ATOMIC : parseAtomic(feeLimitAtomic);
  if (limit < FEE_LIMIT_MIN_ATOMIC || limit > FEE_LIMIT_MAX_ATOMIC) {
    return {
      ok: false,
      message: `chainParams.feeLimitAtomic must be from ${FEE_LIMIT_MIN_ATOMIC} to ${FEE_LIMIT_MAX_ATOMIC} sun.`,
    };
  }
  return {
    ok: true,
    quote: {
      asset: FEE_ASSET,
      estimatedFeeAtomic: burnedFee(limit),
      reservedFeeAtomic: limit,
      feeLimitAtomic: limit,
    },
  };
}
