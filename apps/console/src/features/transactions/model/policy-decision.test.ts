import { describe, expect, it } from 'vitest';
import { decisionFixture } from '../../../test/governance-fixtures';
import { approvalsText, decisionSummary, dryRunRequestOf } from './policy-decision';

const ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const fields = {
  walletId: 'wal_1',
  asset: 'TRX',
  toAddress: ADDRESS,
  amountAtomic: 1_000_000n,
  isAddressValid: true,
};

describe('dryRunRequestOf', () => {
  it('builds the dry run with the exact atomic amount once every field is valid', () => {
    const huge = 2n ** 64n + 1n;
    expect(dryRunRequestOf({ ...fields, amountAtomic: huge })).toEqual({
      walletId: 'wal_1',
      asset: 'TRX',
      toAddress: ADDRESS,
      amountAtomic: '18446744073709551617',
    });
  });

  it.each([
    ['no amount', { amountAtomic: null }],
    ['a zero amount', { amountAtomic: 0n }],
    ['an invalid address', { isAddressValid: false }],
    ['no wallet', { walletId: '' }],
    ['no asset', { asset: '' }],
  ])('asks nothing with %s', (_name, patch) => {
    expect(dryRunRequestOf({ ...fields, ...patch })).toBeNull();
  });
});

describe('approvalsText', () => {
  it('names the count and the roles, singular and plural', () => {
    expect(approvalsText({ count: 1, fromRoles: ['admin'] })).toBe('1 approval from admin');
    expect(approvalsText({ count: 2, fromRoles: ['treasury', 'admin'] })).toBe(
      '2 approvals from treasury or admin',
    );
  });
});

describe('decisionSummary', () => {
  it('ALLOW: will send now, naming the rule', () => {
    const summary = decisionSummary(
      decisionFixture({
        action: 'ALLOW',
        rule: { id: 'internal', name: 'Internal transfers' },
        approvals: null,
      }),
    );
    expect(summary).toMatchObject({ tone: 'allow' });
    expect(summary.headline).toBe('Will send now (allowed by rule "Internal transfers").');
  });

  it('REQUIRE_APPROVAL: how many approvals from whom', () => {
    const summary = decisionSummary(decisionFixture());
    expect(summary.tone).toBe('approval');
    expect(summary.headline).toMatch(/^Needs 1 approval from admin before anything is sent/);
    expect(summary.reason).toBe('Rule "Any other destination" matches: REQUIRE_APPROVAL.');
  });

  it('BLOCK by a rule names the rule and its reason', () => {
    const summary = decisionSummary(
      decisionFixture({
        action: 'BLOCK',
        rule: { id: 'no-usdt', name: 'No USDT out' },
        approvals: null,
        reasons: ['Rule "No USDT out" matches: BLOCK.'],
      }),
    );
    expect(summary).toEqual({
      tone: 'block',
      headline: 'Blocked by rule "No USDT out".',
      reason: 'Rule "No USDT out" matches: BLOCK.',
    });
  });

  it('BLOCK by a limit names the limit, even though a rule matched', () => {
    const summary = decisionSummary(
      decisionFixture({
        action: 'BLOCK',
        approvals: null,
        blockedByLimit: 'daily-trx',
        limits: [
          {
            id: 'daily-trx',
            name: 'Daily TRX',
            scope: 'WALLET',
            asset: 'TRX',
            windowHours: 24,
            usedAtomic: '9000000',
            maxAtomic: '10000000',
            remainingAtomic: '1000000',
            wouldExceed: true,
          },
        ],
      }),
    );
    expect(summary.headline).toBe('Blocked by limit "Daily TRX".');
  });

  it('BLOCK with no matching rule says default deny', () => {
    const summary = decisionSummary(
      decisionFixture({
        action: 'BLOCK',
        rule: null,
        approvals: null,
        reasons: ['No rule matches: blocked by default.'],
      }),
    );
    expect(summary.headline).toBe('Blocked: no rule of the policy allows it (default deny).');
  });
});
