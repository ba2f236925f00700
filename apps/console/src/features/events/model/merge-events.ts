/**
 * The Events page's list: the live events (newest first), then the stored history below them,
 * each event once. The history was read when the page opened, so whatever it shares with the
 * live feed is the same event and keeps its live position.
 */
export function mergeEvents<T extends { id: string }>(
  live: readonly T[],
  history: readonly T[],
): T[] {
  const seen = new Set<string>();
  const merged: T[] = [];
  for (const event of [...live, ...history]) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    merged.push(event);
  }
  return merged;
}
