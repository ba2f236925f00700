import { OverviewSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { treasuryKeys } from './keys';

/**
 * The console shows no generation time, so it is not kept: a refetch with the same figures then
 * leaves the cached overview as it was (structural sharing) and nothing on screen re-renders.
 * The stream's refetches are frequent (every balance event, and whenever a socket opens).
 */
async function fetchOverview(signal?: AbortSignal) {
  const { generatedAt: _shownNowhere, ...figures } = await apiRequest(
    '/bff/overview',
    OverviewSchema,
    { signal },
  );
  return figures;
}

/** Totals, wallets with balances and labels, withdrawals in flight (GET /bff/overview). */
export const overviewQuery = () =>
  queryOptions({
    queryKey: treasuryKeys.overview(),
    queryFn: ({ signal }) => fetchOverview(signal),
  });
