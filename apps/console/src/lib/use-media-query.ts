import { useCallback, useSyncExternalStore } from 'react';

/** Below Tailwind's sm breakpoint: tables whose columns cannot fit become stacked cards. */
export const PHONE_QUERY = '(max-width: 639px)';

/** Whether a CSS media query matches now, re-rendering when that changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => {
        list.removeEventListener('change', onChange);
      };
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}
