import { useCallback, useSyncExternalStore } from 'react';

/** Below Tailwind's sm breakpoint: tables whose columns cannot fit become stacked cards. */
export const PHONE_QUERY = '(max-width: 639px)';

/**
 * One MediaQueryList per query (its `matches` is live). React reads the snapshot on every
 * render of a subscriber and again after its commit; `matchMedia` parses the query and builds
 * a new list each time, which the virtualized list paid on every scroll step (profiled). Kept
 * per `matchMedia` function, so a replaced one (a test's screen width) gets lists of its own.
 */
const listsByMatcher = new WeakMap<Window['matchMedia'], Map<string, MediaQueryList>>();

function listFor(query: string): MediaQueryList {
  // Only a key here; it is called on `window` below.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const matcher = window.matchMedia;
  let lists = listsByMatcher.get(matcher);
  if (!lists) {
    lists = new Map();
    listsByMatcher.set(matcher, lists);
  }
  let list = lists.get(query);
  if (!list) {
    list = matcher.call(window, query);
    lists.set(query, list);
  }
  return list;
}

/** Whether a CSS media query matches now, re-rendering when that changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = listFor(query);
      list.addEventListener('change', onChange);
      return () => {
        list.removeEventListener('change', onChange);
      };
    },
    [query],
  );
  // Stable as `subscribe` is: React schedules a task after the commit of every render that
  // hands it another snapshot function.
  const getSnapshot = useCallback(() => listFor(query).matches, [query]);
  return useSyncExternalStore(subscribe, getSnapshot);
}
