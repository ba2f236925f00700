import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { Filters } from './paging';

/** Filters kept in the URL, so a view can be shared or bookmarked. */
export function useUrlFilters<K extends string>(
  names: readonly K[],
): [Filters<K>, (next: Filters<K>) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => {
    const result: Filters<K> = {};
    for (const name of names) {
      const value = searchParams.get(name);
      if (value) result[name] = value;
    }
    return result;
  }, [names, searchParams]);

  const setFilters = useCallback(
    (next: Filters<K>) => {
      setSearchParams(
        (previous) => {
          const params = new URLSearchParams(previous);
          for (const name of names) {
            const value = next[name];
            if (value) params.set(name, value);
            else params.delete(name);
          }
          return params;
        },
        // The page stays where it is: a filter changes what it lists, not which page it is.
        { replace: true, preventScrollReset: true },
      );
    },
    [names, setSearchParams],
  );
  return [filters, setFilters];
}
