import { describe, expect, it } from 'vitest';
import { ruleChanges } from './policy-history';

const base = {
  version: 1,
  limits: [],
  settings: { requestExpiryHours: 24 },
  createdBy: 'seed',
  createdAt: '',
};

describe('ruleChanges', () => {
  it('lists rule changes between versions', () => {
    const v1 = { ...base, rules: [{ id: 'a', name: 'A', match: {}, action: 'ALLOW' as const }] };
    const v2 = {
      ...base,
      version: 2,
      rules: [
        { id: 'a', name: 'A', match: { assets: ['TRX'] }, action: 'ALLOW' as const },
        { id: 'b', name: 'B', match: {}, action: 'BLOCK' as const },
      ],
    };
    expect(ruleChanges(v1, v2)).toEqual(['Changed rule "A".', 'Added rule "B".']);
    expect(ruleChanges(v2, v1)).toEqual(['Changed rule "A".', 'Removed rule "B".']);
    expect(ruleChanges(undefined, v1)).toEqual(['First version.']);
  });

  it('reads a rule that came back under the same name with another id as one change', () => {
    const v1 = {
      ...base,
      rules: [
        {
          id: 'internal-transfers',
          name: 'Internal transfers',
          match: {},
          action: 'ALLOW' as const,
        },
        { id: 'old-book', name: 'Address book, TRX', match: {}, action: 'ALLOW' as const },
      ],
    };
    const v2 = {
      ...base,
      version: 2,
      rules: [{ id: 'internal', name: 'Internal transfers', match: {}, action: 'ALLOW' as const }],
    };
    expect(ruleChanges(v1, v2)).toEqual([
      'Changed rule "Internal transfers" (id internal-transfers is now internal).',
      'Removed rule "Address book, TRX".',
    ]);
  });
});
