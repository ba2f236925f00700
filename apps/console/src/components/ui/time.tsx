import { formatLocal, formatUtc } from '../../lib/format-time';

/** A timestamp in the operator's zone, UTC on hover. */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="text-slate-500">—</span>;
  return (
    <time dateTime={value} title={formatUtc(value)} className="whitespace-nowrap tabular-nums">
      {formatLocal(value)}
    </time>
  );
}
