import { PolicyDecisionSchema } from '@settlement/protocol';
import type { DryRunRequest } from '@settlement/protocol';
import { queryOptions, skipToken } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { transactionKeys } from './keys';

/**
 * POST /bff/policy/dry-run: what the withdrawal policy would do with this withdrawal, and why.
 * Read-only (a POST only because it carries a body), so the form reads it as a query.
 */
function fetchDryRun(request: DryRunRequest, signal?: AbortSignal) {
  return apiRequest('/bff/policy/dry-run', PolicyDecisionSchema, {
    method: 'POST',
    body: request,
    signal,
  });
}

/** Null while the withdrawal is not complete enough to judge: nothing is asked then. */
export const dryRunQuery = (request: DryRunRequest | null) =>
  queryOptions({
    queryKey: transactionKeys.dryRun(request),
    queryFn: request ? ({ signal }) => fetchDryRun(request, signal) : skipToken,
    // Limits count every withdrawal sent meanwhile: an answer is only good for a short while.
    staleTime: 5_000,
  });
