import type { DryRunRequest } from '@settlement/protocol';
import type { Filters } from '../../../lib/paging';

export const TRANSACTION_FILTERS = [
  'accountId',
  'walletId',
  'clientReference',
  'chain',
  'asset',
  'status',
  'type',
  'createdFrom',
  'createdTo',
] as const;
export type TransactionFilters = Filters<(typeof TRANSACTION_FILTERS)[number]>;

export const transactionKeys = {
  all: ['transactions'] as const,
  lists: () => [...transactionKeys.all, 'list'] as const,
  list: (filters: TransactionFilters) => [...transactionKeys.lists(), filters] as const,
  /** The newest `limit` transactions, one page (the overview's recent activity). */
  recent: (limit: number) => [...transactionKeys.lists(), 'recent', limit] as const,
  details: () => [...transactionKeys.all, 'detail'] as const,
  detail: (id: string) => [...transactionKeys.details(), id] as const,
  timeline: (id: string) => [...transactionKeys.detail(id), 'timeline'] as const,
  operations: () => [...transactionKeys.all, 'operation'] as const,
  operation: (operationId: string) => [...transactionKeys.operations(), operationId] as const,
  /** The address book as the withdrawal form reads it (destinations offered by label). */
  addressBook: () => [...transactionKeys.all, 'address-book'] as const,
  dryRuns: () => [...transactionKeys.all, 'dry-run'] as const,
  dryRun: (request: DryRunRequest | null) => [...transactionKeys.dryRuns(), request] as const,
};
