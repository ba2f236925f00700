import { clsx } from 'clsx';
import type { ReactNode, ThHTMLAttributes, TdHTMLAttributes } from 'react';

/**
 * A table that scrolls sideways inside its own box (never widening the page); the box is a
 * focusable region so the keyboard can scroll it too. `relative`: the box must be the
 * containing block of the screen-reader-only (absolutely positioned) texts in its cells, or
 * those escape its clipping and make the whole page scroll sideways.
 */
export function Table({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      className="relative max-w-full overflow-x-auto"
      role="region"
      aria-label={`${label} (scrollable)`}
      tabIndex={0}
    >
      <table className="w-full border-collapse text-left text-sm" aria-label={label}>
        {children}
      </table>
    </div>
  );
}

/**
 * The cells of a row's actions column, kept at the right edge of a phone's screen while the
 * other columns scroll sideways beneath them: an action sitting off screen behind a sideways
 * scroll (approve an address, remove a passkey) is one a phone user does not find.
 */
const ACTIONS_CELL =
  'max-sm:sticky max-sm:right-0 max-sm:shadow-[-8px_0_8px_-8px_rgb(15_23_42/0.25)]';

/**
 * `isCompact`: the narrower padding of a table whose every column must fit one screen.
 * `isActions`: the column of the rows' buttons (see ACTIONS_CELL).
 */
export function Th({
  className,
  isCompact = false,
  isActions = false,
  ...props
}: ThHTMLAttributes<HTMLTableCellElement> & { isCompact?: boolean; isActions?: boolean }) {
  return (
    <th
      scope="col"
      className={clsx(
        'border-b border-slate-200 bg-slate-50 py-2 text-xs font-semibold tracking-wide text-slate-600 uppercase',
        isCompact ? 'px-3' : 'px-4',
        isActions && ACTIONS_CELL,
        className,
      )}
      {...props}
    />
  );
}

export function Td({
  className,
  isCompact = false,
  isActions = false,
  ...props
}: TdHTMLAttributes<HTMLTableCellElement> & { isCompact?: boolean; isActions?: boolean }) {
  return (
    <td
      className={clsx(
        'border-b border-slate-100 py-2.5 align-middle',
        isCompact ? 'px-3' : 'px-4',
        isActions && clsx(ACTIONS_CELL, 'max-sm:bg-white'),
        className,
      )}
      {...props}
    />
  );
}
