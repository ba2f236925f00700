import { formatLocal, formatUtc } from '../../lib/format-time';

/**
 * A timestamp in the operator's zone, UTC on hover. `canWrap`: it may break at its spaces, for
 * a column given a width that holds the date on one line and the time on the next.
 */
export function Time({
  value,
  canWrap = false,
}: {
  value: string | null | undefined;
  canWrap?: boolean;
}) {
  if (!value) return <span className="text-slate-500">—</span>;
  return (
    <time
      dateTime={value}
      title={formatUtc(value)}
      className={canWrap ? 'tabular-nums' : 'whitespace-nowrap tabular-nums'}
    >
      {formatLocal(value)}
    </time>
  );
}
