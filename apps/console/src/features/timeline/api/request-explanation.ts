import { RequestExplanationSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { timelineKeys } from './keys';

function fetchRequestExplanation(requestId: string, signal?: AbortSignal) {
  return apiRequest(
    `/bff/support/requests/${encodeURIComponent(requestId)}/explanation`,
    RequestExplanationSchema,
    { signal },
  );
}

export const requestExplanationQuery = (requestId: string) =>
  queryOptions({
    queryKey: timelineKeys.explanation(requestId),
    queryFn: ({ signal }) => fetchRequestExplanation(requestId, signal),
  });
