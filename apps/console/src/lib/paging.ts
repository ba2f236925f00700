/** Cursor paging: the first page has no cursor; the next one is whatever the server returned. */
export const FIRST_PAGE: string | null = null;

export const PAGE_SIZE = '50';

/** The largest page the interface serves (DESIGN.md: limit at most 200). */
export const MAX_PAGE_SIZE = '200';

export function nextCursorOf(page: { nextCursor: string | null }): string | null {
  return page.nextCursor;
}

export type Filters<K extends string> = Partial<Record<K, string>>;

/** Said under a picker that lists only the first of many choices, so none seems to be missing. */
export function partialPickerHint(shown: number, what: string): string {
  return `Only the first ${shown.toLocaleString('en-US')} ${what} are listed.`;
}
