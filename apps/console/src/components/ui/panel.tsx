import type { ReactNode } from 'react';

/** A white card with an optional heading. */
export function Panel({
  title,
  actions,
  children,
  className,
}: {
  title?: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    // min-w-0: in a grid or flex row a card may shrink below its content (a wide table then
    // scrolls inside its own container instead of widening the page).
    <section
      className={`min-w-0 rounded-lg border border-slate-200 bg-white shadow-sm ${className ?? ''}`}
    >
      {title ? (
        <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-3">
          <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
          {actions}
        </div>
      ) : null}
      {children}
    </section>
  );
}
