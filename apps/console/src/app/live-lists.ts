import { isStatusRegression, isTerminalStatus } from '@settlement/protocol';
import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import type { ListPage } from '../lib/query-client';

/**
 * Live events and long lists. A list with 10,000 loaded rows is 200 pages: refetching all of
 * them for each burst of events starved the page (BENCHMARKS.md, group 5). Instead, an event
 * refreshes only the first page of a list on screen and merges it into the loaded pages, and a
 * terminal status carried by an event is written into the loaded rows in place, once per frame.
 */

type Paged = { pages: readonly ListPage[]; pageParams: readonly unknown[] };

export function isPaged(value: unknown): value is Paged {
  if (typeof value !== 'object' || value === null) return false;
  const pages: unknown = Reflect.get(value, 'pages');
  return (
    Array.isArray(pages) &&
    Array.isArray(Reflect.get(value, 'pageParams')) &&
    pages.every(
      (page: unknown) =>
        typeof page === 'object' && page !== null && Array.isArray(Reflect.get(page, 'items')),
    )
  );
}

/**
 * The loaded pages with a freshly fetched first page in front. The fresh page ends on a row
 * that is loaded: every loaded row before that one is replaced by the fresh page (new rows
 * appear, rows that left the list go), every row after it is kept with its page's cursor. When
 * no loaded row matches (more new rows arrived than a page holds), the list restarts from the
 * fresh page rather than show a gap.
 */
export function mergeFirstPage(cached: Paged, first: ListPage): Paged {
  const restart = { pages: [first], pageParams: cached.pageParams.slice(0, 1) };
  const last = first.items.at(-1);
  if (!last || first.nextCursor === null) return restart;
  for (let index = 0; index < cached.pages.length; index += 1) {
    const page = cached.pages[index];
    const at = page?.items.findIndex((item) => item.id === last.id) ?? -1;
    if (!page || at === -1) continue;
    const fresh = new Set(first.items.map((item) => item.id));
    // A row never shows twice (its id is the row's key), even if a later page also holds it.
    const later = cached.pages
      .slice(index + 1)
      .map((p) =>
        p.items.some((item) => fresh.has(item.id))
          ? { ...p, items: p.items.filter((item) => !fresh.has(item.id)) }
          : p,
      );
    return {
      pages: [
        {
          ...first,
          items: [...first.items, ...page.items.slice(at + 1)],
          nextCursor: page.nextCursor,
        },
        ...later,
      ],
      pageParams: [...cached.pageParams.slice(0, 1), ...cached.pageParams.slice(index + 1)],
    };
  }
  return restart;
}

function statusOf(item: object): string | null {
  const status: unknown = Reflect.get(item, 'status');
  return typeof status === 'string' ? status : null;
}

/**
 * `statuses` (transaction id -> status) written into the rows that hold those ids. Pages and
 * rows without a change keep their identity (memoized rows do not re-render); a terminal status
 * never moves; nothing changed returns `cached` itself.
 */
export function patchStatuses(cached: Paged, statuses: ReadonlyMap<string, string>): Paged {
  const patch = (item: ListPage['items'][number]) => {
    const status = statuses.get(item.id);
    const held = statusOf(item);
    if (status === undefined || held === null || held === status) return item;
    return isStatusRegression(held, status) ? item : { ...item, status };
  };
  const pages = cached.pages.map((page) => {
    const items = page.items.map(patch);
    return items.some((item, i) => item !== page.items[i]) ? { ...page, items } : page;
  });
  return pages.some((page, i) => page !== cached.pages[i]) ? { ...cached, pages } : cached;
}

/** Resolves once `query` has no fetch under way (or has left the cache). */
function whenIdle(queryClient: QueryClient, query: Query): Promise<void> {
  if (query.state.fetchStatus === 'idle') return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
      if (event.query !== query) return;
      if (event.type === 'removed' || query.state.fetchStatus === 'idle') {
        unsubscribe();
        resolve();
      }
    });
  });
}

type ListTarget = { queryKey: QueryKey; exact: boolean };

/**
 * Refreshes the lists under a key after events. A list on screen with more than one page
 * loaded and a `meta.firstPage` fetches that page alone and merges it; any other query is
 * invalidated as usual (one page, or refetched when next shown). One refresh per list at a
 * time; events meanwhile make one more refresh after it.
 */
export function createListRefresher(
  queryClient: QueryClient,
  invalidateList: (target: ListTarget) => void = (target) => {
    void queryClient.invalidateQueries(target, { cancelRefetch: false });
  },
) {
  let controller = new AbortController();
  /** Lists with a refresh under way (by query hash); true when another one is owed. */
  const running = new Map<string, boolean>();

  const invalidate = (queryKey: QueryKey) => {
    invalidateList({ queryKey, exact: true });
  };

  const refreshHead = async (
    query: Query,
    firstPage: (signal: AbortSignal) => Promise<ListPage>,
  ) => {
    const { signal } = controller;
    running.set(query.queryHash, false);
    try {
      const page = await firstPage(signal);
      // A next page under way was started from the pages as they were: merging now would be
      // overwritten when it lands.
      await whenIdle(queryClient, query);
      if (signal.aborted) return;
      queryClient.setQueryData(query.queryKey, (cached: unknown) =>
        isPaged(cached) ? mergeFirstPage(cached, page) : cached,
      );
    } catch {
      // Shown as it is until it is next used, which then refetches it.
      if (!signal.aborted) {
        void queryClient.invalidateQueries({
          queryKey: query.queryKey,
          exact: true,
          refetchType: 'none',
        });
      }
    } finally {
      const isOwed = running.get(query.queryHash) === true;
      running.delete(query.queryHash);
      if (isOwed && !signal.aborted) refresh({ queryKey: query.queryKey, exact: true });
    }
  };

  const refresh = (target: ListTarget) => {
    const queries = queryClient
      .getQueryCache()
      .findAll({ queryKey: target.queryKey, exact: target.exact });
    for (const query of queries) {
      const firstPage = query.meta?.firstPage;
      const data = query.state.data;
      if (!firstPage || !query.isActive() || !isPaged(data) || data.pages.length <= 1) {
        invalidate(query.queryKey);
      } else if (running.has(query.queryHash)) {
        running.set(query.queryHash, true);
      } else {
        void refreshHead(query, firstPage);
      }
    }
  };

  return {
    refresh,
    /** Drops the refreshes under way (their results are not merged). */
    cancel: () => {
      controller.abort();
      controller = new AbortController();
      running.clear();
    },
  };
}

/**
 * Writes the terminal statuses that events carry into every loaded list of transactions, at
 * most once per `schedule` tick (an animation frame): at 200 events a second the table
 * re-renders once per frame, and only the rows that changed.
 */
export function createStatusPatcher(
  queryClient: QueryClient,
  schedule: (flush: () => void) => void = (flush) => {
    requestAnimationFrame(flush);
  },
) {
  let statuses = new Map<string, string>();
  let isScheduled = false;
  let isDisposed = false;
  const flush = () => {
    isScheduled = false;
    if (isDisposed) return;
    const batch = statuses;
    statuses = new Map();
    for (const query of queryClient.getQueryCache().getAll()) {
      const data = query.state.data;
      if (!query.meta?.firstPage || !isPaged(data)) continue;
      const patched = patchStatuses(data, batch);
      if (patched !== data) queryClient.setQueryData(query.queryKey, patched);
    }
  };
  return {
    add: (transactionId: string, status: string) => {
      // Only PENDING -> terminal ever happens; a terminal status survives a racing refetch.
      if (isDisposed || !isTerminalStatus(status)) return;
      statuses.set(transactionId, status);
      if (isScheduled) return;
      isScheduled = true;
      schedule(flush);
    },
    dispose: () => {
      isDisposed = true;
      statuses.clear();
    },
  };
}
