import { TimelineSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, withQuery } from '../../../lib/api-client';
import { timelineKeys } from './keys';

function fetchTimeline(q: string, signal?: AbortSignal) {
  return apiRequest(withQuery('/bff/support/timeline', { q }), TimelineSchema, { signal });
}

/** `q` arrives clean (the page strips pasted blanks); an empty one asks nothing. */
export const timelineQuery = (q: string) =>
  queryOptions({
    queryKey: timelineKeys.detail(q),
    queryFn: ({ signal }) => fetchTimeline(q, signal),
    enabled: q !== '',
  });
