import type { ReactNode } from 'react';

/**
 * A table's rows as a list of cards, for phone-sized screens (`PHONE_QUERY`): every field and
 * every action of a row in view, where a table would scroll sideways and hide its last columns.
 * `isOrdered` when the order means something (policy rules are evaluated in order).
 */
export function CardList({
  label,
  isOrdered = false,
  children,
}: {
  label: string;
  isOrdered?: boolean;
  children: ReactNode;
}) {
  const className = 'divide-y divide-slate-100 text-sm';
  return isOrdered ? (
    <ol aria-label={label} className={className}>
      {children}
    </ol>
  ) : (
    <ul aria-label={label} className={className}>
      {children}
    </ul>
  );
}

/** One row of a `CardList`: its title line first, then its fields and actions. */
export function Card({ children }: { children: ReactNode }) {
  return <li className="space-y-2 px-4 py-3">{children}</li>;
}

/**
 * A card's fields as term and value pairs in two columns. Pairs whose value is `null` or
 * `undefined` are left out, so a card states only what its row has.
 */
export function CardFields({ fields }: { fields: ReadonlyArray<readonly [string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs text-slate-600">
      {fields.map(([term, value]) =>
        value === null || value === undefined ? null : (
          <div key={term} className="contents">
            <dt>{term}</dt>
            <dd className="min-w-0 break-words text-slate-800">{value}</dd>
          </div>
        ),
      )}
    </dl>
  );
}
