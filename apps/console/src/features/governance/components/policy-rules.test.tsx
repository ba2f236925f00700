import { PolicySchema } from '@settlement/protocol';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screenIs } from '../../../test/screen-width';
import { PolicyRules, describeMatch } from './policy-rules';

const DECIMALS: Record<string, number> = { TRX: 6, USDT: 6, BTT: 18 };
const decimalsFor = (asset: string) => DECIMALS[asset] ?? null;

const policy = PolicySchema.parse({
  version: 3,
  createdBy: 'admin',
  createdAt: '2026-11-25T07:00:00.000Z',
  rules: [
    {
      id: 'book-small',
      name: 'Address book, small',
      match: { assets: ['TRX'], destination: 'ADDRESS_BOOK', amountAtomicLt: '1000000000' },
      action: 'ALLOW',
    },
    {
      id: 'big-mixed',
      name: 'Big, either asset',
      match: { assets: ['USDT', 'BTT'], amountAtomicGte: '2500000000000000000000' },
      action: 'BLOCK',
    },
  ],
  limits: [
    {
      id: 'daily-trx',
      name: 'Daily TRX',
      scope: 'ORG',
      asset: 'TRX',
      windowHours: 24,
      maxAtomic: '50000000000',
    },
  ],
});

describe('the policy as a treasurer reads it', () => {
  it("states amount bounds in the rule's asset with the catalog's decimals, exactly", () => {
    const [small, big] = policy.rules;
    if (!small || !big) throw new Error('fixture');
    expect(describeMatch(small, decimalsFor)).toBe(
      'asset TRX, to an active address-book entry, amount < 1,000 TRX',
    );
    // The same atomic bound means different amounts in assets of different decimals.
    expect(describeMatch(big, decimalsFor)).toBe(
      'asset USDT or BTT, amount ≥ 2,500,000,000,000,000 USDT or 2,500 BTT',
    );
  });

  it('says a bound of a rule for any asset, or of an asset the catalog lacks, is atomic units', () => {
    expect(
      describeMatch(
        { id: 'any', name: 'Any', match: { amountAtomicLt: '1000' }, action: 'ALLOW' },
        decimalsFor,
      ),
    ).toBe('amount < 1000 atomic units of any asset');
    expect(
      describeMatch(
        {
          id: 'odd',
          name: 'Odd',
          match: { assets: ['XYZ'], amountAtomicLt: '1000' },
          action: 'ALLOW',
        },
        decimalsFor,
      ),
    ).toBe('asset XYZ, amount < 1000 atomic units of XYZ');
  });

  it("shows a limit's maximum as an amount of its asset, the atomic units on hover", () => {
    render(<PolicyRules policy={policy} decimalsFor={decimalsFor} />);
    const limits = screen.getByRole('table', { name: 'Limits' });
    const maximum = within(limits).getByTitle('50000000000 atomic units');
    expect(maximum).toHaveTextContent(/^50,000\s*TRX$/);
  });

  describe('on a phone', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('lists each rule with its action first in view, not in a table that scrolls sideways', () => {
      screenIs('phone');
      render(<PolicyRules policy={policy} decimalsFor={decimalsFor} />);
      expect(screen.queryByRole('table', { name: 'Rules, in order' })).not.toBeInTheDocument();
      const rules = within(screen.getByRole('list', { name: 'Rules, in order' })).getAllByRole(
        'listitem',
      );
      expect(rules.map((rule) => rule.textContent)).toEqual([
        '1. Address book, smallALLOWasset TRX, to an active address-book entry, amount < 1,000 TRXbook-small',
        '2. Big, either assetBLOCKasset USDT or BTT, amount ≥ 2,500,000,000,000,000 USDT or 2,500 BTTbig-mixed',
        '3. Anything elseBLOCKno rule above matched',
      ]);
    });

    it('lists each limit as a card with its scope, asset, window and exact maximum, and no table', () => {
      screenIs('phone');
      render(<PolicyRules policy={policy} decimalsFor={decimalsFor} />);
      expect(screen.queryByRole('table', { name: 'Limits' })).not.toBeInTheDocument();
      const [card, ...others] = within(screen.getByRole('list', { name: 'Limits' })).getAllByRole(
        'listitem',
      );
      if (!card) throw new Error('one card');
      expect(others).toHaveLength(0);
      const facts = within(card);
      expect(facts.getByText('Daily TRX')).toBeInTheDocument();
      expect(facts.getByText('Per').nextElementSibling).toHaveTextContent(/^org$/);
      expect(facts.getByText('Asset').nextElementSibling).toHaveTextContent(/^TRX$/);
      expect(facts.getByText('Window').nextElementSibling).toHaveTextContent(/^24 h$/);
      const maximum = facts.getByTitle('50000000000 atomic units');
      expect(maximum).toHaveTextContent(/^50,000\s*TRX$/);
      expect(facts.getByText('Maximum').nextElementSibling).toContainElement(maximum);
    });

    it('keeps the limits table on a wide screen', () => {
      screenIs('desktop');
      render(<PolicyRules policy={policy} decimalsFor={decimalsFor} />);
      expect(screen.getByRole('table', { name: 'Limits' })).toBeInTheDocument();
      expect(screen.queryByRole('list', { name: 'Limits' })).not.toBeInTheDocument();
    });

    it('keeps the table on a wide screen', () => {
      screenIs('desktop');
      render(<PolicyRules policy={policy} decimalsFor={decimalsFor} />);
      expect(screen.getByRole('table', { name: 'Rules, in order' })).toBeInTheDocument();
      expect(screen.queryByRole('list', { name: 'Rules, in order' })).not.toBeInTheDocument();
    });
  });
});
