import { EVENT_HISTORY_LIMIT_DEFAULT } from '@settlement/protocol';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { eventHistoryQuery } from './event-history';
import type { EventFilters } from './keys';

/**
 * The stored history of the Events page. A filtered page reads one window of stored events
 * (the BFF bounds every read, so that one search cannot hold its event loop for seconds): while
 * fewer than a page of matches is loaded and older windows remain, the next window is read at
 * once. "Load more" asks for a further page of matches the same way.
 */
export function useEventHistory(filters: EventFilters) {
  const query = useInfiniteQuery(eventHistoryQuery(filters));
  const items = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  // How many matches the operator has asked for, under these filters.
  const filtersKey = JSON.stringify(filters);
  const [goal, setGoal] = useState({ filtersKey, count: EVENT_HISTORY_LIMIT_DEFAULT });
  const wanted = goal.filtersKey === filtersKey ? goal.count : EVENT_HISTORY_LIMIT_DEFAULT;
  const isSearchingOlder =
    query.data?.pages.at(-1)?.isWindowEnd === true &&
    query.hasNextPage &&
    !query.isError &&
    items.length < wanted;
  const { isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (isSearchingOlder && !isFetchingNextPage) void fetchNextPage();
  }, [isSearchingOlder, isFetchingNextPage, fetchNextPage]);
  const loadMore = {
    hasNextPage: query.hasNextPage && !isSearchingOlder,
    isFetchingNextPage,
    fetchNextPage: () => {
      setGoal({ filtersKey, count: items.length + EVENT_HISTORY_LIMIT_DEFAULT });
      return fetchNextPage();
    },
  };
  return { query, items, isSearchingOlder, loadMore };
}
