import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PolicyDocument, PolicyLimit, PolicyRule } from '@settlement/protocol';
import {
  evaluate,
  parsePolicyDocument,
  validatePolicy,
  type UsageItem,
  type WithdrawalFacts,
} from './policy-engine';

const HOUR = 3_600_000;
const NOW = 1_800_000_000_000;
const TWO_64 = 2n ** 64n;

const facts = (over: Partial<WithdrawalFacts> = {}): WithdrawalFacts => ({
  walletId: 'w1',
  accountId: 'a1',
  chain: 'tron:nile',
  asset: 'TRX',
  amountAtomic: 5_000_000n,
  isAddressBook: false,
  isInternal: false,
  ...over,
});

const rule = (over: Partial<PolicyRule> & Pick<PolicyRule, 'id' | 'action'>): PolicyRule => ({
  name: over.id,
  match: {},
  ...over,
});

const policy = (rules: PolicyRule[], limits: PolicyLimit[] = []) => ({ version: 3, rules, limits });

const catalog = {
  assets: new Set(['TRX', 'USDT']),
  accountIds: new Set(['a1']),
  walletIds: new Set(['w1']),
};

describe('evaluate', () => {
  it('takes the first matching rule and explains why earlier ones did not match', () => {
    const decision = evaluate(
      policy([
        rule({ id: 'book', action: 'ALLOW', match: { destination: 'ADDRESS_BOOK' } }),
        rule({ id: 'usdt', action: 'BLOCK', match: { assets: ['USDT'] } }),
        rule({
          id: 'any',
          action: 'REQUIRE_APPROVAL',
          approvals: { count: 1, fromRoles: ['admin'] },
        }),
        rule({ id: 'later', action: 'ALLOW' }),
      ]),
      facts(),
      [],
      NOW,
    );
    expect(decision.action).toBe('REQUIRE_APPROVAL');
    expect(decision.rule).toEqual({ id: 'any', name: 'any' });
    expect(decision.approvals).toEqual({ count: 1, fromRoles: ['admin'] });
    expect(decision.policyVersion).toBe(3);
    expect(decision.reasons).toEqual([
      'Rule "book" does not match: the destination is not an active address-book entry.',
      'Rule "usdt" does not match: asset TRX is not one of USDT.',
      'Rule "any" matches: REQUIRE_APPROVAL.',
    ]);
  });

  it('blocks by default when no rule matches', () => {
    const decision = evaluate(
      policy([rule({ id: 'internal', action: 'ALLOW', match: { destination: 'INTERNAL' } })]),
      facts(),
      [],
      NOW,
    );
    expect(decision.action).toBe('BLOCK');
    expect(decision.rule).toBeNull();
    expect(decision.reasons.at(-1)).toBe('No rule matches: blocked by default.');
  });

  it('matches internal destinations, accounts, wallets and chains', () => {
    const only = rule({
      id: 'x',
      action: 'ALLOW',
      match: {
        destination: 'INTERNAL',
        accountIds: ['a1'],
        walletIds: ['w1'],
        chains: ['tron:nile'],
      },
    });
    expect(evaluate(policy([only]), facts({ isInternal: true }), [], NOW).action).toBe('ALLOW');
    expect(
      evaluate(policy([only]), facts({ isInternal: true, chain: 'tron:mainnet' }), [], NOW).action,
    ).toBe('BLOCK');
    expect(
      evaluate(policy([only]), facts({ isInternal: true, walletId: 'w2' }), [], NOW).action,
    ).toBe('BLOCK');
    expect(
      evaluate(policy([only]), facts({ isInternal: true, accountId: 'a2' }), [], NOW).action,
    ).toBe('BLOCK');
  });

  it('compares amounts as bigint at 2^64 and beyond (gte inclusive, lt exclusive)', () => {
    const rules = [
      rule({ id: 'small', action: 'ALLOW', match: { amountAtomicLt: TWO_64.toString() } }),
      rule({
        id: 'huge',
        action: 'REQUIRE_APPROVAL',
        approvals: { count: 2, fromRoles: ['admin'] },
        match: { amountAtomicGte: TWO_64.toString(), amountAtomicLt: (2n ** 200n).toString() },
      }),
    ];
    const at = (amount: bigint) =>
      evaluate(policy(rules), facts({ amountAtomic: amount }), [], NOW);
    expect(at(TWO_64 - 1n).rule?.id).toBe('small');
    expect(at(TWO_64).rule?.id).toBe('huge');
    expect(at(TWO_64 + 1n).rule?.id).toBe('huge');
    expect(at(2n ** 200n - 1n).rule?.id).toBe('huge');
    expect(at(2n ** 200n).action).toBe('BLOCK');
  });

  it('counts usage inside the rolling window only, per scope, and blocks past a limit', () => {
    const limits: PolicyLimit[] = [
      {
        id: 'w',
        name: 'Per wallet',
        scope: 'WALLET',
        asset: 'TRX',
        windowHours: 24,
        maxAtomic: '10',
      },
      { id: 'o', name: 'Org', scope: 'ORG', asset: 'TRX', windowHours: 1, maxAtomic: '100' },
      { id: 'u', name: 'USDT', scope: 'ORG', asset: 'USDT', windowHours: 1, maxAtomic: '1' },
    ];
    const usage: UsageItem[] = [
      { walletId: 'w1', accountId: 'a1', asset: 'TRX', amountAtomic: 4n, at: NOW - 2 * HOUR },
      { walletId: 'w1', accountId: 'a1', asset: 'TRX', amountAtomic: 3n, at: NOW - 25 * HOUR },
      { walletId: 'w2', accountId: 'a1', asset: 'TRX', amountAtomic: 50n, at: NOW - 10 },
      { walletId: 'w1', accountId: 'a1', asset: 'USDT', amountAtomic: 9n, at: NOW - 10 },
    ];
    const allow = policy([rule({ id: 'all', action: 'ALLOW' })], limits);
    const ok = evaluate(allow, facts({ amountAtomic: 6n }), usage, NOW);
    expect(ok.action).toBe('ALLOW');
    expect(ok.limits).toEqual([
      expect.objectContaining({
        id: 'w',
        usedAtomic: '4',
        remainingAtomic: '6',
        wouldExceed: false,
      }),
      expect.objectContaining({
        id: 'o',
        usedAtomic: '50',
        remainingAtomic: '50',
        wouldExceed: false,
      }),
    ]);
    const over = evaluate(allow, facts({ amountAtomic: 7n }), usage, NOW);
    expect(over.action).toBe('BLOCK');
    expect(over.blockedByLimit).toBe('w');
    expect(over.rule?.id).toBe('all');
    expect(over.reasons.at(-1)).toContain('Limit "Per wallet" would be exceeded: 4 used of 10');
  });
});

describe('validatePolicy', () => {
  const doc = (rules: PolicyRule[], limits: PolicyLimit[] = []): PolicyDocument => ({
    rules,
    limits,
    settings: { requestExpiryHours: 24 },
  });

  it('names unknown assets, accounts and wallets', () => {
    const problems = validatePolicy(
      doc(
        [
          rule({
            id: 'r',
            action: 'ALLOW',
            match: { assets: ['BTC'], accountIds: ['zz'], walletIds: ['w9'] },
          }),
        ],
        [{ id: 'l', name: 'L', scope: 'ORG', asset: 'DOGE', windowHours: 1, maxAtomic: '1' }],
      ),
      catalog,
    );
    expect(problems.map((p) => p.message)).toEqual([
      'Rule "r": unknown asset BTC',
      'Rule "r": unknown account zz',
      'Rule "r": unknown wallet w9',
      'Limit "L": unknown asset DOGE',
    ]);
  });

  it('names a rule shadowed by an earlier broader one, and empty amount ranges', () => {
    const problems = validatePolicy(
      doc([
        rule({ id: 'trx', action: 'ALLOW', match: { assets: ['TRX'], amountAtomicLt: '100' } }),
        rule({
          id: 'narrow',
          action: 'BLOCK',
          match: { assets: ['TRX'], amountAtomicGte: '5', amountAtomicLt: '50' },
        }),
        rule({
          id: 'wider',
          action: 'BLOCK',
          match: { assets: ['TRX'], amountAtomicGte: '5', amountAtomicLt: '500' },
        }),
        rule({
          id: 'empty',
          action: 'BLOCK',
          match: { amountAtomicGte: '9', amountAtomicLt: '9' },
        }),
        rule({ id: 'book', action: 'ALLOW', match: { destination: 'ADDRESS_BOOK' } }),
        rule({ id: 'any', action: 'BLOCK', match: { destination: 'ANY' } }),
        rule({ id: 'after-any', action: 'ALLOW', match: { destination: 'INTERNAL' } }),
      ]),
      catalog,
    );
    expect(problems.map((p) => [p.ruleId, p.message])).toEqual([
      ['narrow', 'Rule "narrow": unreachable: the earlier rule "trx" matches all it matches'],
      ['empty', 'Rule "empty": no amount is at least 9 and below 9'],
      ['after-any', 'Rule "after-any": unreachable: the earlier rule "any" matches all it matches'],
    ]);
  });

  it('refuses non-integer amounts naming the rule and the field', () => {
    const result = parsePolicyDocument({
      rules: [{ id: 'big', name: 'Big', match: { amountAtomicGte: '1.5' }, action: 'BLOCK' }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]?.ruleId).toBe('big');
    expect(result.problems[0]?.message).toMatch(/^Rule big match\.amountAtomicGte: /);
  });

  it('refuses REQUIRE_APPROVAL without approvals', () => {
    const result = parsePolicyDocument({
      rules: [{ id: 'r', name: 'R', action: 'REQUIRE_APPROVAL' }],
    });
    expect(result.ok).toBe(false);
  });
});

describe('properties', () => {
  const amount = fc.bigInt({ min: 1n, max: 2n ** 80n });
  const destination = fc.record({ isAddressBook: fc.boolean(), isInternal: fc.boolean() });
  const otherRule = fc.record({
    id: fc.constantFrom('a', 'b', 'c'),
    action: fc.constantFrom('ALLOW' as const, 'REQUIRE_APPROVAL' as const),
    lt: fc.option(amount, { nil: undefined }),
  });

  it('a matching BLOCK rule placed first is never bypassed, whatever came before', () => {
    fc.assert(
      fc.property(
        fc.array(otherRule, { maxLength: 4 }),
        fc.array(fc.tuple(amount, destination), { minLength: 1, maxLength: 20 }),
        (others, requests) => {
          const rules: PolicyRule[] = [
            rule({ id: 'stop', action: 'BLOCK', match: { assets: ['TRX'] } }),
            ...others.map((o) =>
              rule({
                id: o.id,
                action: o.action,
                ...(o.action === 'REQUIRE_APPROVAL'
                  ? { approvals: { count: 1, fromRoles: ['admin' as const] } }
                  : {}),
                match: o.lt === undefined ? {} : { amountAtomicLt: o.lt.toString() },
              }),
            ),
          ];
          const usage: UsageItem[] = [];
          for (const [value, dest] of requests) {
            const decision = evaluate(
              policy(rules),
              facts({ amountAtomic: value, ...dest }),
              usage,
              NOW,
            );
            if (decision.action !== 'BLOCK') return false;
            usage.push({
              walletId: 'w1',
              accountId: 'a1',
              asset: 'TRX',
              amountAtomic: value,
              at: NOW,
            });
          }
          return true;
        },
      ),
    );
  });

  it('in any order of requests, what a limit lets through never exceeds its maximum', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 70n }),
        fc.array(amount, { minLength: 1, maxLength: 30 }),
        (max, amounts) => {
          const limited = policy(
            [rule({ id: 'all', action: 'ALLOW' })],
            [
              {
                id: 'l',
                name: 'L',
                scope: 'WALLET',
                asset: 'TRX',
                windowHours: 24,
                maxAtomic: max.toString(),
              },
            ],
          );
          const usage: UsageItem[] = [];
          let total = 0n;
          for (const value of amounts) {
            const decision = evaluate(limited, facts({ amountAtomic: value }), usage, NOW);
            if (decision.action === 'BLOCK') continue;
            total += value;
            usage.push({
              walletId: 'w1',
              accountId: 'a1',
              asset: 'TRX',
              amountAtomic: value,
              at: NOW,
            });
          }
          return total <= max;
        },
      ),
    );
  });
});
