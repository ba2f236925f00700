import { SavedViewListSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, withQuery } from '../../../lib/api-client';
import { savedViewKeys, type SavedViewSubject } from './keys';

function fetchSavedViews(subject: SavedViewSubject, signal?: AbortSignal) {
  return apiRequest(withQuery('/bff/saved-views', { subject }), SavedViewListSchema, { signal });
}

/** The operator's own views of one list and those shared with the organization. */
export const savedViewListQuery = (subject: SavedViewSubject) =>
  queryOptions({
    queryKey: savedViewKeys.list(subject),
    queryFn: ({ signal }) => fetchSavedViews(subject, signal),
  });
