import {
  PolicyDecisionSchema,
  WithdrawalRequestSchema,
  type PolicyDecision,
  type WithdrawalRequest,
} from '@settlement/protocol';

/**
 * Test support: the policy's answer for a withdrawal to an address outside the address book,
 * held for one admin's approval, parsed by the shared contract.
 */
export const externalNeedsAdmin: PolicyDecision = PolicyDecisionSchema.parse({
  action: 'REQUIRE_APPROVAL',
  rule: { id: 'external', name: 'External' },
  reasons: ['Rule "External" matches: REQUIRE_APPROVAL.'],
  approvals: { count: 1, fromRoles: ['admin'] },
  limits: [],
  blockedByLimit: null,
  destination: { isAddressBook: false, isInternal: false },
  policyVersion: 2,
});

/** Test support: a treasury's request of 5 TRX to that address, awaiting one admin's approval. */
export function awaitingRequest(overrides: Partial<WithdrawalRequest> = {}): WithdrawalRequest {
  return WithdrawalRequestSchema.parse({
    id: 'wr_1',
    status: 'AWAITING_APPROVAL',
    operationId: 'op-1',
    requester: 'treasury',
    walletId: 'w1',
    accountId: 'a1',
    chain: 'tron:nile',
    asset: 'TRX',
    toAddress: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
    amountAtomic: '5000000',
    clientReference: 'ref-1',
    policyVersion: 2,
    decision: externalNeedsAdmin,
    approvalsRequired: { count: 1, fromRoles: ['admin'] },
    approvals: [],
    rejection: null,
    transactionId: null,
    correlationId: null,
    failure: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    expiresAt: '2026-01-02T00:00:00.000Z',
    ...overrides,
  });
}
