import type { ExternalToast } from 'sonner';

type ToastKind = 'success' | 'error';

let isWanted = false;
const listeners = new Set<() => void>();

/** For `useSyncExternalStore`: told once, when the first toast is asked for. */
export function subscribeToToastsWanted(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Whether any toast was asked for yet: the toast region is mounted from then on. */
export function areToastsWanted(): boolean {
  return isWanted;
}

/**
 * Shows a toast. The toast library (its code, the stylesheet it inserts into the document, and
 * its region) loads with the first toast, not while the first page starts: each of its renders
 * read the document's computed direction, forcing a style recalculation inside the start's
 * tasks. A toast asked for before its region mounts is shown as the region mounts (the
 * library keeps it until a region subscribes).
 */
export function showToast(kind: ToastKind, message: string, options?: ExternalToast): void {
  if (!isWanted) {
    isWanted = true;
    for (const listener of listeners) listener();
  }
  import('sonner').then(
    ({ toast }) => {
      toast[kind](message, options);
    },
    () => {
      // The chunk could not load (offline, or a newer console replaced it): the toast is lost,
      // not the page. What it would have said is already on the page (a toast only echoes it).
    },
  );
}
