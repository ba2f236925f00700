import { atomicToDisplay } from '@settlement/protocol';
import { clsx } from 'clsx';

/** Formats an atomic amount exactly with the catalog's decimals (never floating point). */
export function formatAmount(atomic: string | bigint, decimals: number | null): string {
  if (decimals === null) return `${atomic.toString()} (atomic)`;
  return atomicToDisplay(atomic, decimals, { grouping: true });
}

/**
 * Blank width, in digits, after `display` so that its decimal point sits where that of an
 * amount with `alignDecimals` fractional digits would: the dot counts when there is none.
 */
export function fractionPadding(display: string, alignDecimals: number): number {
  const dot = display.indexOf('.');
  const fractionDigits = dot === -1 ? 0 : display.length - dot - 1;
  const missing = alignDecimals - fractionDigits;
  return dot === -1 && alignDecimals > 0 ? missing + 1 : Math.max(0, missing);
}

/**
 * An exact amount in tabular monospace figures. In a column, pass `alignDecimals` (the most
 * decimals of the column's assets, from the catalog): the fraction is padded with blank space,
 * not digits, so right-aligned amounts line up on the decimal point and still read as written.
 */
export function Amount({
  atomic,
  decimals,
  asset,
  className,
  alignDecimals,
}: {
  atomic: string | bigint;
  decimals: number | null;
  asset?: string;
  className?: string;
  alignDecimals?: number;
}) {
  const display = formatAmount(atomic, decimals);
  const isAligned = alignDecimals !== undefined && decimals !== null;
  const padding = isAligned ? fractionPadding(display, alignDecimals) : 0;
  return (
    <span
      className={clsx('font-mono whitespace-nowrap tabular-nums', className)}
      title={`${atomic.toString()} atomic units`}
    >
      {/* In a monospace font 1ch is exactly one figure (and the dot), so the pad is exact. */}
      <span style={padding > 0 ? { paddingRight: `${padding}ch` } : undefined}>{display}</span>
      {asset ? (
        <span
          className={clsx(
            'ml-1 font-sans text-slate-600',
            // Asset codes differ in width; a fixed box keeps the figures' right edge in line.
            isAligned && 'inline-block w-10 text-left',
          )}
        >
          {asset}
        </span>
      ) : null}
    </span>
  );
}
