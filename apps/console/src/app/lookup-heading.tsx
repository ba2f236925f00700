import clsx from 'clsx';
import type { ReactNode } from 'react';
import { Badge } from '../components/ui/badge';

/**
 * The line over a Support or Timeline look-up's result: the id as searched and what kinds of id
 * it matched as (`whenNone` when none). Polite live, so a screen reader hears the new result.
 */
export function LookupHeading({
  lead,
  query,
  kinds,
  whenNone = null,
  className,
  children,
}: {
  lead: string;
  query: string;
  kinds: readonly string[];
  whenNone?: ReactNode;
  className?: string;
  /** After the kinds (Timeline's Refresh). */
  children?: ReactNode;
}) {
  return (
    <p
      className={clsx('flex flex-wrap items-center gap-2 text-sm text-slate-700', className)}
      aria-live="polite"
    >
      {lead} <code className="font-mono">{query}</code>
      {kinds.length > 0 ? (
        <>
          matched as
          {kinds.map((kind) => (
            <Badge key={kind} tone="info">
              {kind}
            </Badge>
          ))}
        </>
      ) : (
        whenNone
      )}
      {children}
    </p>
  );
}
