import { isStatusRegression } from '@settlement/protocol';
import { replaceEqualDeep } from '@tanstack/react-query';

/**
 * The protocol's "a terminal status never goes back" (`isStatusRegression`) applied to query
 * results: once the cache holds a terminal transaction, a late or lagging response that says
 * otherwise is ignored. Used as `structuralSharing` of every query that holds transactions.
 */

type WithStatus = { id: string; status: string };
type Pages = { pages: { items: unknown[] }[] };

export function newerOf<T extends WithStatus>(previous: T | undefined, next: T): T {
  if (previous?.id === next.id && isStatusRegression(previous.status, next.status)) {
    return previous;
  }
  return next;
}

/** `structuralSharing` for a single transaction. */
export function keepTerminalDetail(previous: unknown, next: unknown): unknown {
  const kept = isWithStatus(previous) && isWithStatus(next) ? newerOf(previous, next) : next;
  return replaceEqualDeep(previous, kept);
}

/** `structuralSharing` for cursor-paged lists of transactions (infinite queries). */
export function keepTerminalPages(previous: unknown, next: unknown): unknown {
  if (!isPages(previous) || !isPages(next)) return replaceEqualDeep(previous, next);
  const known = new Map<string, WithStatus>();
  for (const page of previous.pages) {
    for (const item of page.items) {
      if (isWithStatus(item)) known.set(item.id, item);
    }
  }
  const merged = {
    ...next,
    pages: next.pages.map((page) => ({
      ...page,
      items: page.items.map((item) =>
        isWithStatus(item) ? newerOf(known.get(item.id), item) : item,
      ),
    })),
  };
  return replaceEqualDeep(previous, merged);
}

/** `structuralSharing` for a single page of transactions (`{ items }`). */
export function keepTerminalPage(previous: unknown, next: unknown): unknown {
  const asPages = (value: unknown) => ({ pages: [value] });
  const merged = keepTerminalPages(asPages(previous), asPages(next));
  return isPages(merged) ? merged.pages[0] : next;
}

function isWithStatus(value: unknown): value is WithStatus {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof Reflect.get(value, 'id') === 'string' &&
    typeof Reflect.get(value, 'status') === 'string'
  );
}

function isPages(value: unknown): value is Pages {
  if (typeof value !== 'object' || value === null) return false;
  const pages: unknown = Reflect.get(value, 'pages');
  return (
    Array.isArray(pages) &&
    pages.every(
      (page: unknown) =>
        typeof page === 'object' && page !== null && Array.isArray(Reflect.get(page, 'items')),
    )
  );
}
