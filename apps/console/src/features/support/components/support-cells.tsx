import { CopyableId } from '../../../components/ui/copy-button';
import { Td } from '../../../components/ui/table';

/** The pieces every support section's table and cards share. */

export function MaybeId({ value, label }: { value: string | null | undefined; label: string }) {
  return value ? (
    <CopyableId value={value} label={label} isShort />
  ) : (
    <span className="text-slate-500">—</span>
  );
}

/**
 * The time column of the compact tables: wide enough for a date on one line and the time on
 * the next, which leaves a 1440 px window room for every id column.
 */
export const TIME_COLUMN = 'w-32';

/** One id in a compact cell of the support tables. */
export function IdCell(props: { value: string | null | undefined; label: string }) {
  return (
    <Td isCompact>
      <MaybeId {...props} />
    </Td>
  );
}

/** A card's field for an id: its term is the table's column header. */
export function idField(label: string, value: string | null | undefined) {
  const term = label.charAt(0).toUpperCase() + label.slice(1);
  return [term, <MaybeId value={value} label={label} />] as const;
}

/** A card's first line: what the row is, and its status at the right. */
export const TITLE_LINE = 'flex items-start justify-between gap-2';
