import { PolicyDecisionSchema } from '@settlement/protocol';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screenIs } from '../../../test/screen-width';
import { DecisionExplanation } from './decision-explanation';

const decision = PolicyDecisionSchema.parse({
  action: 'BLOCK',
  rule: { id: 'external', name: 'External' },
  reasons: ['Rule "External" matches: REQUIRE_APPROVAL.', 'Limit "Daily TRX" would be exceeded.'],
  approvals: null,
  limits: [
    {
      id: 'daily-trx',
      name: 'Daily TRX',
      scope: 'ORG',
      asset: 'TRX',
      windowHours: 24,
      usedAtomic: '49000000000',
      maxAtomic: '50000000000',
      remainingAtomic: '1000000000',
      wouldExceed: true,
    },
    {
      id: 'weekly-wallet',
      name: 'Weekly per wallet',
      scope: 'WALLET',
      asset: 'TRX',
      windowHours: 168,
      usedAtomic: '0',
      maxAtomic: '100000000000',
      remainingAtomic: '100000000000',
      wouldExceed: false,
    },
  ],
  blockedByLimit: 'daily-trx',
  destination: { isAddressBook: false, isInternal: false },
  policyVersion: 4,
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the decision's limits", () => {
  it('are cards on a phone, each with its verdict, window and exact amounts, and no table', () => {
    screenIs('phone');
    render(<DecisionExplanation decision={decision} decimals={6} />);
    expect(screen.queryByRole('table', { name: 'Limits' })).not.toBeInTheDocument();
    const cards = within(screen.getByRole('list', { name: 'Limits' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const [daily, weekly] = cards;
    if (!daily || !weekly) throw new Error('two cards');
    const facts = within(daily);
    expect(daily).toHaveTextContent(/^Daily TRX \(ORG\)/);
    expect(facts.getByText('This withdrawal').nextElementSibling).toHaveTextContent('Would exceed');
    expect(facts.getByText('Window').nextElementSibling).toHaveTextContent(/^24 h$/);
    expect(facts.getByText('Used').nextElementSibling).toHaveTextContent(/^49,000\s*TRX$/);
    expect(facts.getByText('Left').nextElementSibling).toHaveTextContent(/^1,000\s*TRX$/);
    expect(facts.getByText('Maximum').nextElementSibling).toHaveTextContent(/^50,000\s*TRX$/);
    expect(facts.getByTitle('49000000000 atomic units')).toBeInTheDocument();
    expect(weekly).toHaveTextContent(/^Weekly per wallet \(WALLET\)/);
    expect(within(weekly).getByText('This withdrawal').nextElementSibling).toHaveTextContent(
      'Within',
    );
  });

  it('are a table on a wide screen, and no list', () => {
    screenIs('desktop');
    render(<DecisionExplanation decision={decision} decimals={6} />);
    expect(screen.queryByRole('list', { name: 'Limits' })).not.toBeInTheDocument();
    const rows = within(screen.getByRole('table', { name: 'Limits' })).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'LimitWindowUsedLeftMaximumThis withdrawal',
      'Daily TRX (ORG)24 h49,000TRX1,000TRX50,000TRXWould exceed',
      'Weekly per wallet (WALLET)168 h0TRX100,000TRX100,000TRXWithin',
    ]);
  });
});
