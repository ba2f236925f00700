import type { PolicyDocument, PolicyRule } from '@settlement/protocol';

/** 1,000 units of an asset with 6 decimals (TRX and USDT, the demo catalog's assets). */
const THOUSAND_UNITS_ATOMIC = '1000000000';

const belowThousand = (asset: string): PolicyRule => ({
  id: `address-book-${asset.toLowerCase()}-below-1000`,
  name: `Address book, ${asset} below 1,000`,
  match: { assets: [asset], destination: 'ADDRESS_BOOK', amountAtomicLt: THOUSAND_UNITS_ATOMIC },
  action: 'ALLOW',
});

/**
 * The demo organization's default policy (DESIGN.md "Second wave"): internal transfers are
 * allowed; address-book destinations are allowed below 1,000 units and need one approval from
 * treasury or admin at 1,000 and above; any other destination needs one approval from an admin.
 * Nothing else is allowed (default deny).
 */
export const DEMO_POLICY: PolicyDocument = {
  rules: [
    {
      id: 'internal-transfers',
      name: 'Internal transfers',
      match: { destination: 'INTERNAL' },
      action: 'ALLOW',
    },
    belowThousand('TRX'),
    belowThousand('USDT'),
    {
      id: 'address-book-1000-and-above',
      name: 'Address book, 1,000 and above',
      match: { destination: 'ADDRESS_BOOK' },
      action: 'REQUIRE_APPROVAL',
      approvals: { count: 1, fromRoles: ['treasury', 'admin'] },
    },
    {
      id: 'other-destinations',
      name: 'Any other destination',
      match: { destination: 'ANY' },
      action: 'REQUIRE_APPROVAL',
      approvals: { count: 1, fromRoles: ['admin'] },
    },
  ],
  limits: [],
  settings: { requestExpiryHours: 24 },
};

/** Everything allowed: what test harnesses and journeys not about governance install. */
export const ALLOW_ALL_POLICY: PolicyDocument = {
  rules: [{ id: 'allow-all', name: 'Allow everything', match: {}, action: 'ALLOW' }],
  limits: [],
  settings: { requestExpiryHours: 24 },
};
