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

/** `isCompact`: the narrower padding of a table whose every column must fit one screen. */
export function Th({
  className,
  isCompact = false,
  ...props
}: ThHTMLAttributes<HTMLTableCellElement> & { isCompact?: boolean }) {
  return (
    <th
      scope="col"
      className={clsx(
        'border-b border-slate-200 bg-slate-50 py-2 text-xs font-semibold tracking-wide text-slate-600 uppercase',
        isCompact ? 'px-3' : 'px-4',
        className,
      )}
      {...props}
    />
  );
}

export function Td({
  className,
  isCompact = false,
  ...props
}: TdHTMLAttributes<HTMLTableCellElement> & { isCompact?: boolean }) {
  return (
    <td
      className={clsx(
        'border-b border-slate-100 py-2.5 align-middle',
        isCompact ? 'px-3' : 'px-4',
        className,
      )}
      {...props}
    />
  );
}

/** The header of a column of row buttons: named for screen readers, blank on screen. */
export function ActionsTh() {
  return (
    <Th>
      <span className="sr-only">Actions</span>
    </Th>
  );
}
