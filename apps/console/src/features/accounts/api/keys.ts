import type { Filters } from '../../../lib/paging';

export const ACCOUNT_FILTERS = ['search', 'externalId'] as const;
export type AccountFilters = Filters<(typeof ACCOUNT_FILTERS)[number]>;

export const accountKeys = {
  all: ['accounts'] as const,
  lists: () => [...accountKeys.all, 'list'] as const,
  list: (filters: AccountFilters) => [...accountKeys.lists(), filters] as const,
  details: () => [...accountKeys.all, 'detail'] as const,
  detail: (id: string) => [...accountKeys.details(), id] as const,
  balances: (id: string) => [...accountKeys.detail(id), 'balances'] as const,
  wallets: (id: string) => [...accountKeys.detail(id), 'wallets'] as const,
  transactions: (id: string) => [...accountKeys.detail(id), 'transactions'] as const,
};
