/** Cursor paging: the first page has no cursor; the next one is whatever the server returned. */
export const FIRST_PAGE: string | null = null;

export const PAGE_SIZE = '50';

export function nextCursorOf(page: { nextCursor: string | null }): string | null {
  return page.nextCursor;
}

export type Filters<K extends string> = Partial<Record<K, string>>;
