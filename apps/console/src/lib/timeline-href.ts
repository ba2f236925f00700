/** The shareable address of one id's timeline; every link to it, from any feature, uses this. */
export function timelineHref(q: string): string {
  return `/timeline?${new URLSearchParams({ q }).toString()}`;
}
