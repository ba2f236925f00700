import type { WithdrawalRequestStatus } from '@settlement/protocol';

/** Query keys of withdrawal governance, from general to specific. */
export const governanceKeys = {
  all: ['governance'] as const,
  requests: () => [...governanceKeys.all, 'withdrawal-requests'] as const,
  requestLists: () => [...governanceKeys.requests(), 'list'] as const,
  requestList: (status: WithdrawalRequestStatus | null) =>
    [...governanceKeys.requestLists(), status ?? 'all'] as const,
  requestDetails: () => [...governanceKeys.requests(), 'detail'] as const,
  requestDetail: (id: string) => [...governanceKeys.requestDetails(), id] as const,
  policy: () => [...governanceKeys.all, 'policy'] as const,
  policyCurrent: () => [...governanceKeys.policy(), 'current'] as const,
  policyVersions: () => [...governanceKeys.policy(), 'versions'] as const,
  addressBook: () => [...governanceKeys.all, 'address-book'] as const,
};
