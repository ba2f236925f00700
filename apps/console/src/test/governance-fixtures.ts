import {
  AddressBookEntrySchema,
  PolicyBlockedDetailSchema,
  PolicyDecisionSchema,
  WithdrawalRequestSchema,
} from '@settlement/protocol';
import type {
  AddressBookEntry,
  PolicyBlockedDetail,
  PolicyDecision,
  WithdrawalRequest,
} from '@settlement/protocol';

/**
 * Test support: governance answers of the BFF, each parsed by its protocol schema, so a
 * fixture that drifts from the contract fails here rather than passing a test.
 */

const AT = '2026-01-01T00:00:00.000Z';

/** The demo default policy's answer for an external address: one approval from an admin. */
export function decisionFixture(overrides: Partial<PolicyDecision> = {}): PolicyDecision {
  return PolicyDecisionSchema.parse({
    action: 'REQUIRE_APPROVAL',
    rule: { id: 'other-destinations', name: 'Any other destination' },
    reasons: [
      'Rule "Internal transfers" does not match: the destination is not a wallet of the organization.',
      'Rule "Any other destination" matches: REQUIRE_APPROVAL.',
    ],
    approvals: { count: 1, fromRoles: ['admin'] },
    limits: [],
    blockedByLimit: null,
    destination: { isAddressBook: false, isInternal: false },
    policyVersion: 3,
    ...overrides,
  });
}

export function withdrawalRequestFixture(
  overrides: Partial<WithdrawalRequest> = {},
): WithdrawalRequest {
  return WithdrawalRequestSchema.parse({
    id: 'wr_1',
    status: 'AWAITING_APPROVAL',
    operationId: 'op-1',
    requester: 'treasury',
    walletId: 'wal_1',
    accountId: 'acc_1',
    chain: 'tron:nile',
    asset: 'TRX',
    toAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    amountAtomic: '8900000',
    clientReference: 'wd-op-1',
    policyVersion: 3,
    decision: decisionFixture(),
    approvalsRequired: { count: 1, fromRoles: ['admin'] },
    approvals: [],
    rejection: null,
    transactionId: null,
    correlationId: null,
    failure: null,
    createdAt: AT,
    updatedAt: AT,
    expiresAt: '2026-01-02T00:00:00.000Z',
    ...overrides,
  });
}

export function addressBookEntryFixture(
  overrides: Partial<AddressBookEntry> = {},
): AddressBookEntry {
  return AddressBookEntrySchema.parse({
    id: 'ab_1',
    chain: 'tron:nile',
    address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    label: 'Exchange hot wallet',
    status: 'ACTIVE',
    createdBy: 'treasury',
    createdAt: AT,
    approvedBy: 'admin',
    approvedAt: AT,
    removedBy: null,
    removedAt: null,
    ...overrides,
  });
}

/** The first detail of a 403 POLICY_BLOCKED. */
export function policyBlockedFixture(
  overrides: Partial<PolicyBlockedDetail> = {},
): PolicyBlockedDetail {
  return PolicyBlockedDetailSchema.parse({
    rule: { id: 'no-usdt-out', name: 'No USDT out' },
    limit: null,
    policyVersion: 3,
    reasons: ['Rule "No USDT out" matches: BLOCK.'],
    ...overrides,
  });
}
