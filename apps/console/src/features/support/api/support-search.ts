import { SupportSearchResultSchema, type SupportSearchResult } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, withQuery } from '../../../lib/api-client';
import { supportKeys } from './keys';

/** The answer of GET /bff/support/search: the shared BFF contract. */
const SupportResultSchema = SupportSearchResultSchema;
export type SupportResult = SupportSearchResult;

/** Blank and invisible characters (zero-width spaces, direction marks) at either end. */
const PASTE_DEBRIS = /^[\s\p{Cf}]+|[\s\p{Cf}]+$/gu;

/**
 * An id as pasted from chat, e-mail or a log: surrounding spaces, line breaks and invisible
 * characters are not part of it (the BFF accepts visible ASCII only, so it would refuse them).
 */
export function cleanSupportQuery(q: string): string {
  return q.replace(PASTE_DEBRIS, '');
}

function searchSupport(q: string, signal?: AbortSignal) {
  return apiRequest(withQuery('/bff/support/search', { q }), SupportResultSchema, { signal });
}

/** Cleans `q` itself, so a link or an address bar with a padded id works as well as the form. */
export const supportSearchQuery = (q: string) => {
  const clean = cleanSupportQuery(q);
  return queryOptions({
    queryKey: supportKeys.search(clean),
    queryFn: ({ signal }) => searchSupport(clean, signal),
    enabled: clean !== '',
  });
};
