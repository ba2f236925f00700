import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { accountKeys } from '../features/accounts/api/keys';
import { transactionKeys } from '../features/transactions/api/keys';
import { walletKeys } from '../features/wallets/api/keys';
import { applyFrame, keysForPath } from './live-updates';

describe('keysForPath', () => {
  it('maps each REST path of an event to the exact cache key', () => {
    expect(keysForPath('/api/v1/transactions/tx_1')).toEqual([
      { queryKey: transactionKeys.detail('tx_1'), exact: true },
      { queryKey: transactionKeys.timeline('tx_1'), exact: true },
    ]);
    expect(keysForPath('/api/v1/wallets/w_1/balances')).toEqual([
      { queryKey: walletKeys.balances('w_1'), exact: true },
    ]);
    expect(keysForPath('/api/v1/ledger/accounts/a_1/transactions')).toEqual([
      { queryKey: accountKeys.transactions('a_1'), exact: true },
    ]);
    expect(keysForPath('/api/v1/transactions')).toEqual([
      { queryKey: transactionKeys.lists(), exact: false },
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
    applyFrame(client, frame('transaction.updated', 'PENDING', 'e1'));
    expect(client.getQueryData(transactionKeys.detail('tx_1'))).toEqual({
      id: 'tx_1',
      status: 'CONFIRMED',
    });
  });
});
