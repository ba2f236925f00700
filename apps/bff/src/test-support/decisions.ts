import type { PolicyDecision } from '@settlement/protocol';

/** A decision that holds a withdrawal for `count` admins' approval: what a stored request keeps. */
export function heldDecision(count = 1): PolicyDecision {
  return {
    action: 'REQUIRE_APPROVAL',
    rule: { id: 'rule-1', name: 'Everything' },
    reasons: [],
    approvals: { count, fromRoles: ['admin'] },
    limits: [],
    blockedByLimit: null,
    destination: { isAddressBook: false, isInternal: false },
    policyVersion: 1,
  };
}
