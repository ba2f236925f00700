import {
  AmountFormatError,
  FEE_LIMIT_MAX_ATOMIC,
  FEE_LIMIT_MIN_ATOMIC,
  atomicToDisplay,
  displayToAtomic,
} from '@settlement/protocol';
import type { Asset } from '@settlement/protocol';

/**
 * Withdrawal arithmetic, all in bigint atomic units. Network fees are paid in the chain's
 * native asset (TRX): a TRX transfer costs a flat fee, a TRC-20 transfer reserves its fee limit.
 */

/** Flat fee of a native TRX transfer: 1.1 TRX. */
export const NATIVE_TRANSFER_FEE_ATOMIC = 1_100_000n;
/** Default fee limit of a TRC-20 transfer: 30 TRX. */
const TOKEN_FEE_LIMIT_DEFAULT_ATOMIC = 30_000_000n;

export type AmountParse = { atomic: bigint | null; problem: string | null };

/** Display units typed by the operator to atomic, exactly; empty input is "no amount yet". */
export function parseAmount(text: string, decimals: number): AmountParse {
  if (text === '') return { atomic: null, problem: null };
  try {
    const atomic = displayToAtomic(text, decimals);
    if (atomic === 0n) return { atomic: null, problem: 'Enter an amount greater than zero.' };
    return { atomic, problem: null };
  } catch (error) {
    return {
      atomic: null,
      problem: error instanceof AmountFormatError ? error.message : 'This is not an amount.',
    };
  }
}

/** The native asset of a chain in the catalog: the entry without a contract address. */
export function nativeAssetOf(catalog: readonly Asset[], chain: string): Asset | null {
  return (
    catalog.find((asset) =>
      asset.chains.some((c) => c.chain === chain && c.enabled && c.contractAddress === null),
    ) ?? null
  );
}

export function isTokenOn(asset: Asset, chain: string): boolean {
  return asset.chains.some((c) => c.chain === chain && c.contractAddress !== null);
}

export type FeePlan = {
  /** The native asset the fee is paid in. */
  feeAsset: string;
  feeDecimals: number;
  /** What is reserved for the fee (flat fee, or the fee limit of a token transfer). */
  feeAtomic: bigint;
  isFeeLimit: boolean;
};

export function feePlan(options: {
  isToken: boolean;
  nativeAsset: Asset;
  feeLimitAtomic: bigint | null;
}): FeePlan {
  return {
    feeAsset: options.nativeAsset.asset,
    feeDecimals: options.nativeAsset.decimals,
    feeAtomic: options.isToken
      ? (options.feeLimitAtomic ?? TOKEN_FEE_LIMIT_DEFAULT_ATOMIC)
      : NATIVE_TRANSFER_FEE_ATOMIC,
    isFeeLimit: options.isToken,
  };
}

/**
 * The largest amount that leaves room for the fee: for the native asset, available minus
 * the fee; for a token, the token's available balance (the fee comes from the native balance).
 */
export function maxAmount(options: {
  isToken: boolean;
  availableAtomic: bigint;
  fee: FeePlan;
}): bigint {
  if (options.isToken) return options.availableAtomic;
  const max = options.availableAtomic - options.fee.feeAtomic;
  return max > 0n ? max : 0n;
}

export type Coverage = { isCovered: boolean; problem: string | null };

/** Whether the available balances cover amount and fee, with the reason when not. */
export function coverage(options: {
  isToken: boolean;
  amountAtomic: bigint;
  availableAtomic: bigint;
  nativeAvailableAtomic: bigint;
  fee: FeePlan;
  decimals: number;
  asset: string;
}): Coverage {
  const { fee } = options;
  const show = (atomic: bigint, decimals: number) =>
    atomicToDisplay(atomic, decimals, { grouping: true });
  if (!options.isToken) {
    const total = options.amountAtomic + fee.feeAtomic;
    if (total > options.availableAtomic) {
      return {
        isCovered: false,
        problem: `Amount plus the ${show(fee.feeAtomic, fee.feeDecimals)} ${fee.feeAsset} fee is ${show(total, options.decimals)} ${options.asset}; only ${show(options.availableAtomic, options.decimals)} is available.`,
      };
    }
    return { isCovered: true, problem: null };
  }
  if (options.amountAtomic > options.availableAtomic) {
    return {
      isCovered: false,
      problem: `Only ${show(options.availableAtomic, options.decimals)} ${options.asset} is available.`,
    };
  }
  if (fee.feeAtomic > options.nativeAvailableAtomic) {
    return {
      isCovered: false,
      problem: `The fee limit of ${show(fee.feeAtomic, fee.feeDecimals)} ${fee.feeAsset} is reserved from the wallet's ${fee.feeAsset}, and only ${show(options.nativeAvailableAtomic, fee.feeDecimals)} is available.`,
    };
  }
  return { isCovered: true, problem: null };
}

/** Fee limit typed in native display units; empty means "use the default". */
export function parseFeeLimit(text: string, nativeDecimals: number): AmountParse {
  if (text === '') return { atomic: null, problem: null };
  const parsed = parseAmount(text, nativeDecimals);
  if (parsed.atomic === null) return parsed;
  if (parsed.atomic < FEE_LIMIT_MIN_ATOMIC || parsed.atomic > FEE_LIMIT_MAX_ATOMIC) {
    return {
      atomic: null,
      problem: `The fee limit must be between ${atomicToDisplay(FEE_LIMIT_MIN_ATOMIC, nativeDecimals)} and ${atomicToDisplay(FEE_LIMIT_MAX_ATOMIC, nativeDecimals, { grouping: true })}.`,
    };
  }
  return parsed;
}
