import { atomicToDisplay } from '@settlement/protocol';
import { clsx } from 'clsx';

/** Formats an atomic amount exactly with the catalog's decimals (never floating point). */
export function formatAmount(atomic: string | bigint, decimals: number | null): string {
  if (decimals === null) return `${atomic.toString()} (atomic)`;
  return atomicToDisplay(atomic, decimals, { grouping: true });
}

export function Amount({
  atomic,
  decimals,
  asset,
  className,
}: {
  atomic: string | bigint;
  decimals: number | null;
  asset?: string;
  className?: string;
}) {
  return (
    <span
      className={clsx('font-mono whitespace-nowrap tabular-nums', className)}
      title={`${atomic.toString()} atomic units`}
    >
      {formatAmount(atomic, decimals)}
      {asset ? <span className="ml-1 font-sans text-slate-600">{asset}</span> : null}
    </span>
  );
}
