import { AuditPageSchema } from '@settlement/protocol';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiRequest, withQuery } from '../../../lib/api-client';
import { auditKeys, type AuditPageParams } from './keys';

function fetchAuditPage(params: AuditPageParams, signal?: AbortSignal) {
  const { page, ...rest } = params;
  return apiRequest(withQuery('/bff/audit', { ...rest, page: String(page) }), AuditPageSchema, {
    signal,
  });
}

/**
 * A page read at a given snapshotAt never changes; one without asks for "now", which is stale
 * as soon as it arrives. The previous page stays on screen while the next one loads.
 */
export const auditPageQuery = (params: AuditPageParams) =>
  queryOptions({
    queryKey: auditKeys.list(params),
    queryFn: ({ signal }) => fetchAuditPage(params, signal),
    staleTime: params.snapshotAt ? Infinity : 0,
    placeholderData: keepPreviousData,
  });
