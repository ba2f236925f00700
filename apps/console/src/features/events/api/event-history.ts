import { EventHistoryPageSchema } from '@settlement/protocol';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiRequest, withQuery } from '../../../lib/api-client';
import { eventKeys, type EventFilters } from './keys';

export function fetchEventHistory(
  filters: EventFilters,
  before: number | null,
  signal?: AbortSignal,
) {
  return apiRequest(
    withQuery('/bff/events/history', {
      ...filters,
      before: before === null ? undefined : String(before),
    }),
    EventHistoryPageSchema,
    { signal },
  );
}

/** The BFF's stored events, newest first, older pages on demand (GET /bff/events/history). */
export const eventHistoryQuery = (filters: EventFilters) =>
  infiniteQueryOptions({
    queryKey: eventKeys.history(filters),
    queryFn: ({ pageParam, signal }) => fetchEventHistory(filters, pageParam, signal),
    initialPageParam: null as number | null,
    getNextPageParam: (page) => page.nextBefore,
    // The live stream continues from here; a refetch would only reshuffle what is shown.
    staleTime: Infinity,
  });
