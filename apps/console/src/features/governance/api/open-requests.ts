import { useQuery } from '@tanstack/react-query';
import { openRequestsOf, type OpenRequests } from '../model/open-requests';
import { withdrawalRequestListQuery } from './withdrawal-requests';

/**
 * The requests not yet sent upstream (awaiting approval, approved and being sent), from the
 * same two lists the overview and the approvals page read, so the stream keeps them fresh.
 * `open` is null while either list is unread or failed: a sum over one list alone would
 * understate what is promised, and so would the old copy a failed refresh leaves (a newer
 * request may be missing from it). `isError`: a list could not be read (it is retried).
 */
export function useOpenRequests(): { open: OpenRequests | null; isError: boolean } {
  const awaiting = useQuery(withdrawalRequestListQuery('AWAITING_APPROVAL'));
  const approved = useQuery(withdrawalRequestListQuery('APPROVED'));
  const isError = awaiting.isError || approved.isError;
  return {
    open: isError ? null : openRequestsOf(awaiting.data?.items, approved.data?.items),
    isError,
  };
}
