import type { ListEnvelope } from '@settlement/protocol';

/**
 * Follows `nextCursor` unchanged until it is null, yielding each page. A cursor is passed
 * back exactly as received (never decoded or edited); a repeated cursor stops with an error
 * instead of looping forever.
 */
export async function* iteratePages<T>(
  fetchPage: (cursor: string | null) => Promise<ListEnvelope<T>>,
): AsyncGenerator<ListEnvelope<T>, void, undefined> {
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (;;) {
    const page = await fetchPage(cursor);
    yield page;
    if (page.nextCursor === null) return;
    if (seen.has(page.nextCursor)) throw new Error('the upstream repeated a cursor');
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}

/** Every item of every page, in order. */
export async function* iterateItems<T>(
  fetchPage: (cursor: string | null) => Promise<ListEnvelope<T>>,
): AsyncGenerator<T, void, undefined> {
  for await (const page of iteratePages(fetchPage)) yield* page.items;
}
