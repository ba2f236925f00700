import type { Filters } from '../../../lib/paging';

export const WALLET_FILTERS = [
  'status',
  'chain',
  'addressContains',
  'accountId',
  'createdFrom',
  'createdTo',
  'sortBy',
  'sortOrder',
] as const;
export type WalletFilters = Filters<(typeof WALLET_FILTERS)[number]>;

export const walletKeys = {
  all: ['wallets'] as const,
  lists: () => [...walletKeys.all, 'list'] as const,
  list: (filters: WalletFilters) => [...walletKeys.lists(), filters] as const,
  /** Under lists(), so whatever refreshes the wallet lists refreshes the pickers too. */
  every: (filters: WalletFilters) => [...walletKeys.lists(), 'every', filters] as const,
  details: () => [...walletKeys.all, 'detail'] as const,
  detail: (id: string) => [...walletKeys.details(), id] as const,
  balances: (id: string) => [...walletKeys.detail(id), 'balances'] as const,
};
