import { z } from 'zod/mini';

/**
 * Atomic amounts are bigint in code and base-10 strings on the wire. Conversions to and from
 * display units are pure string/bigint arithmetic: no Number, no floating point anywhere.
 */

export const MAX_DECIMALS = 30;
const ATOMIC_PATTERN = /^(0|[1-9][0-9]*)$/;
/** Up to 2^256: more than any chain amount, small enough to bound parsing work. */
const MAX_ATOMIC_DIGITS = 78;

export const AtomicAmountSchema = z
  .string()
  .check(
    z.maxLength(MAX_ATOMIC_DIGITS),
    z.regex(ATOMIC_PATTERN, 'must be a base-10 integer string without sign or leading zeros'),
  );

/** Same as AtomicAmountSchema but also allows a leading minus (signed amounts, deltas). */
export const SignedAtomicAmountSchema = z
  .string()
  .check(
    z.maxLength(MAX_ATOMIC_DIGITS + 1),
    z.regex(/^(0|-?[1-9][0-9]*)$/, 'must be a signed base-10 integer string'),
  );

export class AmountFormatError extends Error {
  override readonly name = 'AmountFormatError';
}

function checkDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) {
    throw new AmountFormatError(`decimals must be an integer from 0 to ${MAX_DECIMALS}`);
  }
}

export function parseAtomic(text: string): bigint {
  if (!AtomicAmountSchema.safeParse(text).success) {
    throw new AmountFormatError(`"${text}" is not an atomic amount`);
  }
  return BigInt(text);
}

/**
 * Display units ("12.5") to atomic bigint. Accepts digits with at most one dot; rejects signs,
 * exponents, whitespace, grouping, empty input and more fractional digits than `decimals`.
 */
export function displayToAtomic(display: string, decimals: number): bigint {
  checkDecimals(decimals);
  const match = /^([0-9]*)(?:\.([0-9]*))?$/.exec(display);
  const whole = match?.[1] ?? '';
  const fraction = match?.[2] ?? '';
  if (!match || (whole === '' && fraction === '')) {
    throw new AmountFormatError('Enter a number such as 12.5, without sign or exponent.');
  }
  if (fraction.length > decimals) {
    throw new AmountFormatError(
      decimals === 0
        ? 'This asset has no decimal places.'
        : `At most ${decimals} decimal places for this asset.`,
    );
  }
  if (whole.length + decimals > MAX_ATOMIC_DIGITS) {
    throw new AmountFormatError('The amount is too large.');
  }
  return BigInt((whole || '0') + fraction.padEnd(decimals, '0'));
}

export type FormatOptions = {
  /** Insert thousands separators in the whole part (display only; never parsed back). */
  grouping?: boolean;
  /** Keep at least this many fractional digits (default: trim trailing zeros entirely). */
  minFractionDigits?: number;
};

/** Atomic (bigint or string) to display units, exact, negative values allowed. */
export function atomicToDisplay(
  atomic: bigint | string,
  decimals: number,
  options: FormatOptions = {},
): string {
  checkDecimals(decimals);
  const value = typeof atomic === 'bigint' ? atomic : BigInt(atomic);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const wholeDigits = digits.slice(0, digits.length - decimals);
  let fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  const minFraction = Math.min(options.minFractionDigits ?? 0, decimals);
  fraction = fraction.padEnd(minFraction, '0');
  const whole = options.grouping ? groupThousands(wholeDigits) : wholeDigits;
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
