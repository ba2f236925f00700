import type { QueryClient, QueryFilters } from '@tanstack/react-query';

/**
 * Invalidation that cannot be swallowed by a fetch already under way.
 *
 * The live stream invalidates with `cancelRefetch: false`, so a burst of events never keeps a
 * list from finishing its load. But a fetch under way may have read the server before the
 * change it is told about, and its success then marks the query fresh again: the change is
 * lost until something else refetches (a new withdrawal request never reached the list on a
 * busy machine). So a query fetching when it is invalidated is owed one more refetch when that
 * fetch settles; several invalidations meanwhile still make one.
 *
 * Called with no filters it invalidates everything, which is also how the window before the
 * stream first opens is closed: a socket opened without a resume position gets only what
 * happens from then on, so whatever was read (or is being read) before it opened is read again.
 */
export type OwedRefetch = {
  invalidate: (filters?: QueryFilters) => void;
  dispose: () => void;
};

export function createOwedRefetch(queryClient: QueryClient): OwedRefetch {
  const cache = queryClient.getQueryCache();
  const owed = new Set<string>();
  let isDisposed = false;

  const invalidateNow = (filters: QueryFilters) => {
    void queryClient.invalidateQueries(filters, { cancelRefetch: false });
  };

  const unsubscribe = cache.subscribe((event) => {
    if (event.type !== 'updated') return;
    const { action, query } = event;
    if (action.type !== 'success' && action.type !== 'error') return;
    // A failed fetch leaves the query invalidated: it is fetched again when next used.
    if (!owed.delete(query.queryHash) || action.type === 'error') return;
    // After the cache has finished telling everyone of this result.
    queueMicrotask(() => {
      if (!isDisposed) invalidateNow({ predicate: (candidate) => candidate === query });
    });
  });

  return {
    invalidate: (filters = {}) => {
      for (const query of cache.findAll(filters)) {
        if (query.state.fetchStatus === 'fetching') owed.add(query.queryHash);
      }
      invalidateNow(filters);
    },
    dispose: () => {
      isDisposed = true;
      owed.clear();
      unsubscribe();
    },
  };
}
