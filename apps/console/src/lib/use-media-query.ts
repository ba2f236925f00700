import { useCallback, useSyncExternalStore } from 'react';

/** Below Tailwind's sm breakpoint: tables whose columns cannot fit become stacked cards. */
export const PHONE_QUERY = '(max-width: 639px)';

/**
 * One watched MediaQueryList per query. While a component subscribes, its `matches` is kept
 * here, refreshed by the list's `change` event: React reads the snapshot on every render of a
 * subscriber and again after its commit, and Chromium's `matches` getter evaluates the query
 * each time (2% of the virtualized list's scroll step, profiled). Without subscribers the live
 * getter is read. `matchMedia` itself parses the query and builds a new list each call, so
 * lists are kept per `matchMedia` function: a replaced one (a test's screen width) gets lists
 * of its own.
 */
type Watched = {
  list: MediaQueryList;
  matches: boolean;
  subscribers: Set<() => void>;
  onChange: () => void;
};

const watchedByMatcher = new WeakMap<Window['matchMedia'], Map<string, Watched>>();

function watchedFor(query: string): Watched {
  // Only a key here; it is called on `window` below.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const matcher = window.matchMedia;
  let byQuery = watchedByMatcher.get(matcher);
  if (!byQuery) {
    byQuery = new Map();
    watchedByMatcher.set(matcher, byQuery);
  }
  let watched = byQuery.get(query);
  if (!watched) {
    const list = matcher.call(window, query);
    const created: Watched = {
      list,
      matches: list.matches,
      subscribers: new Set(),
      onChange: () => {
        created.matches = list.matches;
        for (const subscriber of [...created.subscribers]) subscriber();
      },
    };
    watched = created;
    byQuery.set(query, watched);
  }
  return watched;
}

/** Whether a CSS media query matches now, re-rendering when that changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const watched = watchedFor(query);
      if (watched.subscribers.size === 0) {
        watched.matches = watched.list.matches;
        watched.list.addEventListener('change', watched.onChange);
      }
      watched.subscribers.add(onChange);
      return () => {
        watched.subscribers.delete(onChange);
        if (watched.subscribers.size === 0) {
          watched.list.removeEventListener('change', watched.onChange);
        }
      };
    },
    [query],
  );
  // Stable as `subscribe` is: React schedules a task after the commit of every render that
  // hands it another snapshot function.
  const getSnapshot = useCallback(() => {
    const watched = watchedFor(query);
    return watched.subscribers.size > 0 ? watched.matches : watched.list.matches;
  }, [query]);
  return useSyncExternalStore(subscribe, getSnapshot);
}
