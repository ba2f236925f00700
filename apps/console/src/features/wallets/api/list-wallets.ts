import { WalletSchema, listEnvelope } from '@settlement/protocol';
import type { Wallet } from '@settlement/protocol';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiRequest, withQuery } from '../../../lib/api-client';
import { FIRST_PAGE, MAX_PAGE_SIZE, PAGE_SIZE, nextCursorOf } from '../../../lib/paging';
import { walletKeys } from './keys';
import type { WalletFilters } from './keys';

const WalletPageSchema = listEnvelope(WalletSchema);

function fetchWallets(
  filters: WalletFilters,
  cursor: string | null,
  signal?: AbortSignal,
  limit: string = PAGE_SIZE,
) {
  const path = withQuery('/bff/api/v1/wallets', { ...filters, cursor, limit });
  return apiRequest(path, WalletPageSchema, { signal });
}

export const walletListQuery = (filters: WalletFilters) =>
  infiniteQueryOptions({
    queryKey: walletKeys.list(filters),
    queryFn: ({ pageParam, signal }) => fetchWallets(filters, pageParam, signal),
    initialPageParam: FIRST_PAGE,
    getNextPageParam: nextCursorOf,
  });

/**
 * How many wallets a picker lists at most. A native select stays usable at this size, and the
 * pages behind it are five requests; past it, the picker says the list is partial.
 */
const PICKER_WALLETS_MAX = 1000;

/** Every wallet matching the filters, page after page up to PICKER_WALLETS_MAX: for pickers. */
export const everyWalletQuery = (filters: WalletFilters) =>
  queryOptions({
    queryKey: walletKeys.every(filters),
    queryFn: async ({ signal }) => {
      const items: Wallet[] = [];
      let cursor = FIRST_PAGE;
      do {
        const page = await fetchWallets(filters, cursor, signal, MAX_PAGE_SIZE);
        items.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor !== null && items.length < PICKER_WALLETS_MAX);
      return {
        items: items.slice(0, PICKER_WALLETS_MAX),
        isPartial: cursor !== null || items.length > PICKER_WALLETS_MAX,
      };
    },
  });
