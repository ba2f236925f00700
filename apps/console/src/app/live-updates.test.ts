import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { accountKeys } from '../features/accounts/api/keys';
import { transactionKeys } from '../features/transactions/api/keys';
import { treasuryKeys } from '../features/treasury/api/keys';
import { walletKeys } from '../features/wallets/api/keys';
import { applyFrame, createInvalidationBatcher, invalidateNow, keysForPath } from './live-updates';

describe('keysForPath', () => {
  it('maps each REST path of an event to the exact cache key', () => {
    expect(keysForPath('/api/v1/transactions/tx_1')).toEqual([
      { queryKey: transactionKeys.detail('tx_1'), exact: true },
      { queryKey: transactionKeys.timeline('tx_1'), exact: true },
    ]);
    expect(keysForPath('/api/v1/wallets/w_1/balances')).toEqual([
      { queryKey: walletKeys.balances('w_1'), exact: true },
      { queryKey: treasuryKeys.overview(), exact: true },
    ]);
    expect(keysForPath('/api/v1/ledger/accounts/a_1/transactions')).toEqual([
      { queryKey: accountKeys.transactions('a_1'), exact: true, isPagedList: true },
    ]);
    expect(keysForPath('/api/v1/transactions')).toEqual([
      { queryKey: transactionKeys.lists(), exact: false, isPagedList: true },
      { queryKey: treasuryKeys.overview(), exact: true },
    ]);
  });

  it('ignores paths it does not know', () => {
    expect(keysForPath('/api/v1/journal/entries')).toEqual([]);
  });
});

describe('applyFrame', () => {
  function seeded() {
    const client = new QueryClient();
    client.setQueryData(transactionKeys.detail('tx_1'), { id: 'tx_1', status: 'PENDING' });
    client.setQueryData(transactionKeys.detail('tx_2'), { id: 'tx_2', status: 'PENDING' });
    client.setQueryData(transactionKeys.list({}), { pages: [], pageParams: [] });
    client.setQueryData(walletKeys.balances('w_1'), { items: [] });
    client.setQueryData(walletKeys.balances('w_2'), { items: [] });
    client.setQueryData(walletKeys.detail('w_1'), { id: 'w_1' });
    return client;
  }
  const isStale = (client: QueryClient, key: readonly unknown[]) =>
    client.getQueryState(key)?.isInvalidated ?? false;

  it('invalidates exactly the named resources and every transaction list', () => {
    const client = seeded();
    applyFrame(client, {
      kind: 'event',
      event: {
        id: 'e1',
        type: 'transaction.updated',
        occurredAt: '2026-01-01T00:00:00Z',
        data: { transactionId: 'tx_1' },
      },
      invalidates: [
        '/api/v1/transactions/tx_1',
        '/api/v1/wallets/w_1/balances',
        '/api/v1/transactions',
      ],
    });
    expect(isStale(client, transactionKeys.detail('tx_1'))).toBe(true);
    expect(isStale(client, walletKeys.balances('w_1'))).toBe(true);
    expect(isStale(client, transactionKeys.list({}))).toBe(true);
    expect(isStale(client, transactionKeys.detail('tx_2'))).toBe(false);
    expect(isStale(client, walletKeys.balances('w_2'))).toBe(false);
    // The wallet detail is a parent key of its balances; exact matching leaves it alone.
    expect(isStale(client, walletKeys.detail('w_1'))).toBe(false);
  });

  it('writes a terminal status from the event, and never moves one back', () => {
    const client = seeded();
    const frame = (type: string, status: string, id: string) => ({
      kind: 'event' as const,
      event: {
        id,
        type,
        occurredAt: '2026-01-01T00:00:00Z',
        data: { transactionId: 'tx_1', status },
      },
      invalidates: [],
    });
    applyFrame(client, frame('transaction.confirmed', 'CONFIRMED', 'e2'));
    expect(client.getQueryData(transactionKeys.detail('tx_1'))).toEqual({
      id: 'tx_1',
      status: 'CONFIRMED',
    });
    // A late PENDING is no terminal status: it is dropped before the cache is looked at.
    applyFrame(client, frame('transaction.updated', 'PENDING', 'e1'));
    expect(client.getQueryData(transactionKeys.detail('tx_1'))).toEqual({
      id: 'tx_1',
      status: 'CONFIRMED',
    });
    // A different terminal status does reach the cached copy, whose terminal status is final.
    applyFrame(client, frame('transaction.failed', 'FAILED', 'e3'));
    expect(client.getQueryData(transactionKeys.detail('tx_1'))).toEqual({
      id: 'tx_1',
      status: 'CONFIRMED',
    });
  });

  it('on "resync" (the relay cannot resume) invalidates every query once, in one call', async () => {
    const client = seeded();
    client.setQueryData(['mpc', 'status'], { keyStatus: 'ACTIVE' });
    const fetches: string[] = [];
    // An active query refetches from REST at once.
    const observer = new QueryObserver(client, {
      queryKey: walletKeys.detail('w_1'),
      queryFn: () => {
        fetches.push('w_1');
        return { id: 'w_1' };
      },
      staleTime: Infinity,
    });
    const unsubscribe = observer.subscribe(() => undefined);
    const invalidateAll = vi.spyOn(client, 'invalidateQueries');

    applyFrame(client, { kind: 'resync', reason: 'resume-point-unknown' });

    expect(invalidateAll).toHaveBeenCalledTimes(1);
    const everyKey = client
      .getQueryCache()
      .getAll()
      .map((query) => query.queryKey);
    expect(everyKey.length).toBeGreaterThan(5);
    for (const key of everyKey) expect(isStale(client, key)).toBe(true);
    await vi.waitFor(() => {
      expect(fetches).toEqual(['w_1']);
    });
    unsubscribe();
  });
});

describe('createInvalidationBatcher', () => {
  it('invalidates each named query once per window, however many events name it', () => {
    vi.useFakeTimers();
    try {
      const client = new QueryClient();
      client.setQueryData(transactionKeys.list({}), { pages: [], pageParams: [] });
      const spy = vi.spyOn(client, 'invalidateQueries');
      const batcher = createInvalidationBatcher(client, 250);
      for (let i = 0; i < 50; i++) {
        applyFrame(
          client,
          {
            kind: 'event',
            event: {
              id: `e${i}`,
              type: 'transaction.updated',
              occurredAt: '2026-01-01T00:00:00Z',
              data: {},
            },
            invalidates: ['/api/v1/transactions', `/api/v1/transactions/tx_${i % 2}`],
          },
          batcher.invalidate,
        );
      }
      expect(spy).not.toHaveBeenCalled();
      vi.advanceTimersByTime(250);
      // One list and one overview invalidation, plus details and timelines of tx_0 and tx_1.
      expect(spy).toHaveBeenCalledTimes(6);
      // The list is not on screen: invalidated (refetched when next shown), not fetched.
      expect(spy).toHaveBeenCalledWith(
        { queryKey: transactionKeys.list({}), exact: true },
        { cancelRefetch: false },
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps a refetch under way instead of cancelling and restarting it', async () => {
    const client = new QueryClient();
    // Cached data makes this a background refetch: the kind a live event triggers.
    client.setQueryData(walletKeys.balances('w_1'), { items: [] });
    let fetches = 0;
    const releases: (() => void)[] = [];
    const observer = new QueryObserver(client, {
      queryKey: walletKeys.balances('w_1'),
      staleTime: 0,
      queryFn: () =>
        new Promise<{ items: never[] }>((resolve) => {
          fetches += 1;
          releases.push(() => {
            resolve({ items: [] });
          });
        }),
    });
    const unsubscribe = observer.subscribe(() => undefined);
    expect(fetches).toBe(1);
    const target = { queryKey: walletKeys.balances('w_1'), exact: true };
    invalidateNow(client)(target);
    invalidateNow(client)(target);
    // Let every fetch started so far finish, then count: a cancel-and-restart would show up
    // as more than one fetch once the query is idle again.
    for (const release of releases) release();
    await vi.waitFor(() => {
      expect(client.getQueryState(walletKeys.balances('w_1'))?.fetchStatus).toBe('idle');
    });
    expect(fetches).toBe(1);
    unsubscribe();
  });
});
