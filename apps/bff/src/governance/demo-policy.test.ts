import { describe, expect, it } from 'vitest';
import { DEMO_POLICY } from './demo-policy';
import { evaluate, validatePolicy, type WithdrawalFacts } from './policy-engine';

const UNITS = 1_000_000n;
const facts = (over: Partial<WithdrawalFacts>): WithdrawalFacts => ({
  walletId: 'w1',
  accountId: 'a1',
  chain: 'tron:nile',
  asset: 'TRX',
  amountAtomic: 1n,
  isAddressBook: false,
  isInternal: false,
  ...over,
});
const decide = (over: Partial<WithdrawalFacts>) =>
  evaluate({ ...DEMO_POLICY, version: 1 }, facts(over), [], 0);

describe('the demo default policy (DESIGN.md)', () => {
  it('is valid: known assets, no unreachable rule', () => {
    expect(
      validatePolicy(DEMO_POLICY, {
        assets: new Set(['TRX', 'USDT']),
        accountIds: new Set(),
        walletIds: new Set(),
      }),
    ).toEqual([]);
  });

  it('allows internal transfers of any amount', () => {
    expect(decide({ isInternal: true, amountAtomic: 10n ** 30n }).action).toBe('ALLOW');
  });

  it('allows address-book destinations below 1,000 units and asks treasury or admin from 1,000', () => {
    for (const asset of ['TRX', 'USDT']) {
      expect(decide({ asset, isAddressBook: true, amountAtomic: 1000n * UNITS - 1n }).action).toBe(
        'ALLOW',
      );
      expect(decide({ asset, isAddressBook: true, amountAtomic: 1000n * UNITS })).toMatchObject({
        action: 'REQUIRE_APPROVAL',
        approvals: { count: 1, fromRoles: ['treasury', 'admin'] },
      });
    }
  });

  it('asks one admin for any other destination', () => {
    expect(decide({ amountAtomic: 1n })).toMatchObject({
      action: 'REQUIRE_APPROVAL',
      approvals: { count: 1, fromRoles: ['admin'] },
    });
  });
});
