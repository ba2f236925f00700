import { Suspense, lazy, useSyncExternalStore, type ComponentType } from 'react';
import type { ToasterProps } from 'sonner';
import { areToastsWanted, subscribeToToastsWanted } from '../../lib/toasts';

/** Nothing, where the toast library could not load: a toast is lost, never the console. */
function NoToaster(): null {
  return null;
}

const Toaster = lazy((): Promise<{ default: ComponentType<ToasterProps> }> =>
  import('sonner').then(
    (m) => ({ default: m.Toaster }),
    () => ({ default: NoToaster }),
  ),
);

/**
 * The toast region, mounted with the first toast (lib/toasts): toasts answer actions and live
 * events, never the first paint, so their library (~10 KB gzip) stays out of the start.
 */
export function DeferredToaster() {
  const isWanted = useSyncExternalStore(subscribeToToastsWanted, areToastsWanted, () => false);
  if (!isWanted) return null;
  return (
    <Suspense fallback={null}>
      {/*
        Toasts never cover a page's primary action: those sit in the page header's right-hand
        actions and, on phones, in a sticky bar at the bottom. So: top centre below the app
        header on wide screens; on phones over the app header itself (menu and sign-out only).
        `dir` as index.html sets it: without it, every render of the region reads the
        document's computed direction (a forced style recalculation).
      */}
      <Toaster
        position="top-center"
        offset={{ top: 72 }}
        mobileOffset={{ top: 4, left: 8, right: 8 }}
        theme="system"
        dir="ltr"
        closeButton
      />
    </Suspense>
  );
}
