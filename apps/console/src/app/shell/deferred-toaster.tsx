import { Suspense, lazy, useEffect, useState } from 'react';

const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

/**
 * The toast region, loaded once the first page has painted and the main thread is idle: toasts
 * answer actions and live events, never the first paint, so their library (~10 KB gzip) stays
 * off the first page's critical path.
 */
export function DeferredToaster() {
  const [isWanted, setIsWanted] = useState(false);
  useEffect(() => {
    const want = () => {
      setIsWanted(true);
    };
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(want, { timeout: 2_000 });
      return () => {
        window.cancelIdleCallback(id);
      };
    }
    const id = window.setTimeout(want, 200);
    return () => {
      window.clearTimeout(id);
    };
  }, []);
  if (!isWanted) return null;
  return (
    <Suspense fallback={null}>
      {/*
        Toasts never cover a page's primary action: those sit in the page header's right-hand
        actions and, on phones, in a sticky bar at the bottom. So: top centre below the app
        header on wide screens; on phones over the app header itself (menu and sign-out only).
      */}
      <Toaster
        position="top-center"
        offset={{ top: 72 }}
        mobileOffset={{ top: 4, left: 8, right: 8 }}
        theme="system"
        closeButton
      />
    </Suspense>
  );
}
