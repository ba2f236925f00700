import { InfiniteQueryObserver, QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { transactionKeys } from '../features/transactions/api/keys';
import type { ListPage } from '../lib/query-client';
import {
  createListRefresher,
  createStatusPatcher,
  isPaged,
  mergeFirstPage,
  patchStatuses,
} from './live-lists';

type Row = { id: string; status: string };
type Page = { items: Row[]; nextCursor: string | null };

const row = (n: number, status = 'PENDING'): Row => ({ id: `tx_${n}`, status });
/** Rows newest first, `from` down to `to`. */
const rows = (from: number, to: number) =>
  Array.from({ length: from - to + 1 }, (_, i) => row(from - i));
const ids = (pages: readonly ListPage[]) => pages.flatMap((p) => p.items.map((i) => i.id));

describe('mergeFirstPage', () => {
  const cached = {
    pages: [
      { items: rows(100, 96), nextCursor: 'c95' },
      { items: rows(95, 91), nextCursor: 'c90' },
      { items: rows(90, 86), nextCursor: 'c85' },
    ],
    pageParams: [null, 'c95', 'c90'],
  };

  it('puts new rows in front and keeps every loaded row after the fresh page, with its cursors', () => {
    const merged = mergeFirstPage(cached, { items: rows(102, 98), nextCursor: 'c97' });
    expect(ids(merged.pages)).toEqual(rows(102, 86).map((r) => r.id));
    expect(merged.pages.map((p) => p.nextCursor)).toEqual(['c95', 'c90', 'c85']);
    expect(merged.pageParams).toEqual([null, 'c95', 'c90']);
    // Later pages are the same objects: their rows do not re-render.
    expect(merged.pages[1]).toBe(cached.pages[1]);
  });

  it('continues from a later page when the fresh page reaches into it', () => {
    const merged = mergeFirstPage(cached, { items: rows(103, 94), nextCursor: 'c93' });
    expect(ids(merged.pages)).toEqual(rows(103, 86).map((r) => r.id));
    expect(merged.pages.map((p) => p.nextCursor)).toEqual(['c90', 'c85']);
    expect(merged.pageParams).toEqual([null, 'c90']);
  });

  it('drops a loaded row that left the list, and never shows a row twice', () => {
    const withGone = {
      pages: [
        { items: [row(100), row(99), row(98)], nextCursor: 'c98' },
        { items: [row(97)], nextCursor: 'c97' },
      ],
      pageParams: [null, 'c98'],
    };
    // tx_99 left the list (e.g. a status filter); tx_97 moved up into the fresh page.
    const merged = mergeFirstPage(withGone, {
      items: [row(101), row(100), row(97), row(98)],
      nextCursor: 'c98',
    });
    expect(ids(merged.pages)).toEqual(['tx_101', 'tx_100', 'tx_97', 'tx_98']);
  });

  it('restarts from the fresh page when more rows arrived than it holds', () => {
    const merged = mergeFirstPage(cached, { items: rows(120, 116), nextCursor: 'c115' });
    expect(ids(merged.pages)).toEqual(rows(120, 116).map((r) => r.id));
    expect(merged.pageParams).toEqual([null]);
  });

  it('keeps only the fresh page when the whole list fits in it', () => {
    const merged = mergeFirstPage(cached, { items: rows(3, 1), nextCursor: null });
    expect(merged.pages).toEqual([{ items: rows(3, 1), nextCursor: null }]);
  });
});

describe('patchStatuses', () => {
  const cached = {
    pages: [
      { items: [row(3), row(2, 'CONFIRMED')], nextCursor: 'c2' },
      { items: [row(1)], nextCursor: null },
    ],
    pageParams: [null, 'c2'],
  };

  it('writes statuses into the rows that hold them and keeps every other page and row', () => {
    const patched = patchStatuses(cached, new Map([['tx_1', 'CONFIRMED']]));
    expect(patched.pages[1]?.items).toEqual([row(1, 'CONFIRMED')]);
    expect(patched.pages[0]).toBe(cached.pages[0]);
  });

  it('never moves a terminal status, and returns the same object when nothing changed', () => {
    expect(patchStatuses(cached, new Map([['tx_2', 'FAILED']]))).toBe(cached);
    expect(patchStatuses(cached, new Map([['tx_9', 'CONFIRMED']]))).toBe(cached);
  });
});

describe('createListRefresher', () => {
  /** A server list of `total` rows (newest = highest number), pages of 5, and an observer. */
  function listOnScreen(total: number) {
    const server = { newest: total, pageFetches: 0, headFetches: 0 };
    const pageAt = (cursor: number): Page => {
      const to = Math.max(1, cursor - 4);
      return { items: rows(cursor, to), nextCursor: to > 1 ? String(to - 1) : null };
    };
    const client = new QueryClient();
    const observer = new InfiniteQueryObserver(client, {
      queryKey: transactionKeys.list({}),
      initialPageParam: null as string | null,
      queryFn: ({ pageParam }) => {
        server.pageFetches += 1;
        return Promise.resolve(pageAt(pageParam === null ? server.newest : Number(pageParam)));
      },
      getNextPageParam: (page: Page) => page.nextCursor,
      meta: {
        firstPage: () => {
          server.headFetches += 1;
          return Promise.resolve(pageAt(server.newest));
        },
      },
    });
    const unsubscribe = observer.subscribe(() => undefined);
    const loadedIds = () => {
      const data: unknown = client.getQueryData(transactionKeys.list({}));
      return isPaged(data) ? ids(data.pages) : [];
    };
    return { server, client, observer, unsubscribe, loadedIds };
  }

  it('fetches only the first page of a long list on screen and merges the new rows', async () => {
    const list = listOnScreen(100);
    await vi.waitFor(() => {
      expect(list.loadedIds()).toHaveLength(5);
    });
    await list.observer.fetchNextPage();
    await list.observer.fetchNextPage();
    expect(list.server.pageFetches).toBe(3);
    list.server.newest = 102;

    createListRefresher(list.client).refresh({ queryKey: transactionKeys.lists(), exact: false });

    await vi.waitFor(() => {
      expect(list.loadedIds()).toEqual(rows(102, 86).map((r) => r.id));
    });
    expect(list.server).toMatchObject({ pageFetches: 3, headFetches: 1 });
    // The next page still follows on from the last loaded row.
    await list.observer.fetchNextPage();
    expect(list.loadedIds().slice(-5)).toEqual(rows(85, 81).map((r) => r.id));
    list.unsubscribe();
  });

  it('waits for a next page under way, so the merge is not overwritten when it lands', async () => {
    const list = listOnScreen(100);
    await vi.waitFor(() => {
      expect(list.loadedIds()).toHaveLength(5);
    });
    await list.observer.fetchNextPage();
    list.server.newest = 101;
    const next = list.observer.fetchNextPage();
    createListRefresher(list.client).refresh({ queryKey: transactionKeys.lists(), exact: false });
    await next;
    await vi.waitFor(() => {
      expect(list.loadedIds()).toEqual(rows(101, 86).map((r) => r.id));
    });
    list.unsubscribe();
  });

  it('invalidates a list that is not on screen instead of fetching it', () => {
    const client = new QueryClient();
    const firstPage = vi.fn(() => Promise.resolve({ items: [], nextCursor: null }));
    client.setQueryData(transactionKeys.list({}), {
      pages: [
        { items: rows(10, 6), nextCursor: '5' },
        { items: rows(5, 1), nextCursor: null },
      ],
      pageParams: [null, '5'],
    });
    client
      .getQueryCache()
      .find({ queryKey: transactionKeys.list({}) })
      ?.setOptions({
        queryKey: transactionKeys.list({}),
        meta: { firstPage },
      });
    createListRefresher(client).refresh({ queryKey: transactionKeys.lists(), exact: false });
    expect(firstPage).not.toHaveBeenCalled();
    expect(client.getQueryState(transactionKeys.list({}))?.isInvalidated).toBe(true);
  });
});

describe('createStatusPatcher', () => {
  it('writes the terminal statuses of a whole frame in one update per list', () => {
    const client = new QueryClient();
    const key = transactionKeys.list({});
    client.setQueryData(key, {
      pages: [{ items: rows(3, 1), nextCursor: null }],
      pageParams: [null],
    });
    client
      .getQueryCache()
      .find({ queryKey: key })
      ?.setOptions({
        queryKey: key,
        meta: { firstPage: () => Promise.resolve({ items: [], nextCursor: null }) },
      });
    const frames: (() => void)[] = [];
    const patcher = createStatusPatcher(client, (flush) => frames.push(flush));
    const updates = vi.fn();
    const unsubscribe = client.getQueryCache().subscribe(updates);

    patcher.add('tx_1', 'CONFIRMED');
    patcher.add('tx_2', 'PENDING');
    patcher.add('tx_3', 'FAILED');
    expect(frames).toHaveLength(1);
    expect(updates).not.toHaveBeenCalled();
    frames[0]?.();

    const data: unknown = client.getQueryData(key);
    expect(isPaged(data) && data.pages[0]?.items).toEqual([
      row(3, 'FAILED'),
      row(2),
      row(1, 'CONFIRMED'),
    ]);
    expect(updates.mock.calls.filter(([event]) => event.type === 'updated')).toHaveLength(1);
    unsubscribe();
  });
});
