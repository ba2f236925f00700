import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createOwedRefetch } from './owed-refetch';

const KEY = ['governance', 'withdrawal-requests', 'list', 'all'];

/**
 * An active query whose fetches the test finishes by hand; each fetch answers what the "server"
 * holds when it reads, which is when the fetch starts.
 */
function heldQuery(options: { fail?: boolean } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  let server = ['wr_1'];
  const finishes: (() => void)[] = [];
  let fetches = 0;
  // The key names the list; what it reads is the test's "server", deliberately outside it.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  const observer = new QueryObserver(client, {
    queryKey: KEY,
    staleTime: Infinity,
    queryFn: () => {
      fetches += 1;
      const read = [...server];
      return new Promise<string[]>((resolve, reject) => {
        finishes.push(() => {
          if (options.fail) reject(new Error('503'));
          else resolve(read);
        });
      });
    },
  });
  const unsubscribe = observer.subscribe(() => undefined);
  const finishAll = async () => {
    while (finishes.length > 0) {
      finishes.shift()?.();
      // Settled, or already fetching again (an owed refetch starts a microtask after a result).
      await vi.waitFor(() => {
        expect(finishes.length > 0 || client.getQueryState(KEY)?.fetchStatus === 'idle').toBe(true);
      });
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  return {
    client,
    fetches: () => fetches,
    write: (items: string[]) => {
      server = items;
    },
    finishAll,
    data: () => client.getQueryData<string[]>(KEY),
    unsubscribe,
  };
}

describe('createOwedRefetch', () => {
  it('a change told while a fetch that read before it is under way is fetched once more after it', async () => {
    const query = heldQuery();
    const owed = createOwedRefetch(query.client);
    // The first fetch has read the list; then a request is created and the change arrives.
    query.write(['wr_1', 'wr_2']);
    owed.invalidate({ queryKey: KEY });
    owed.invalidate({ queryKey: KEY });

    await query.finishAll();

    // Not cancelled and restarted (a burst cannot starve the load), but one more read after it.
    expect(query.fetches()).toBe(2);
    expect(query.data()).toEqual(['wr_1', 'wr_2']);
    owed.dispose();
    query.unsubscribe();
  });

  it('an idle query is refetched once, with nothing owed after', async () => {
    const query = heldQuery();
    await query.finishAll();
    const owed = createOwedRefetch(query.client);
    query.write(['wr_1', 'wr_2']);
    owed.invalidate();

    await query.finishAll();

    expect(query.fetches()).toBe(2);
    expect(query.data()).toEqual(['wr_1', 'wr_2']);
    owed.dispose();
    query.unsubscribe();
  });

  it('owes nothing after a failed fetch: the query stays invalidated until it is next used', async () => {
    const query = heldQuery({ fail: true });
    const owed = createOwedRefetch(query.client);
    owed.invalidate({ queryKey: KEY });

    await query.finishAll();

    expect(query.fetches()).toBe(1);
    expect(query.client.getQueryState(KEY)?.isInvalidated).toBe(true);
    owed.dispose();
    query.unsubscribe();
  });

  it('once disposed, a fetch under way settles without another', async () => {
    const query = heldQuery();
    const owed = createOwedRefetch(query.client);
    owed.invalidate({ queryKey: KEY });
    owed.dispose();

    await query.finishAll();

    expect(query.fetches()).toBe(1);
    query.unsubscribe();
  });
});
