import { PolicyDecisionSchema, type PolicyDecision } from '@settlement/protocol';

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
