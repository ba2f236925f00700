import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AmountFormatError,
  AtomicAmountSchema,
  atomicToDisplay,
  displayToAtomic,
  parseAtomic,
  SignedAtomicAmountSchema,
} from './amounts';

describe('displayToAtomic', () => {
  it('converts exactly for the asset decimals', () => {
    expect(displayToAtomic('12.5', 6)).toBe(12_500_000n);
    expect(displayToAtomic('0.000001', 6)).toBe(1n);
    expect(displayToAtomic('.5', 6)).toBe(500_000n);
    expect(displayToAtomic('7.', 6)).toBe(7_000_000n);
    expect(displayToAtomic('42', 0)).toBe(42n);
    expect(displayToAtomic('0.1', 18)).toBe(100_000_000_000_000_000n);
    expect(displayToAtomic('000123.450', 6)).toBe(123_450_000n);
  });

  it.each(['', '.', '-1', '+1', '1e6', ' 1', '1 ', '1,000', '0x10', '1.2.3', 'NaN', 'Infinity'])(
    'rejects %j',
    (input) => {
      expect(() => displayToAtomic(input, 6)).toThrow(AmountFormatError);
    },
  );

  it('rejects more fractional digits than the asset has', () => {
    expect(() => displayToAtomic('0.0000001', 6)).toThrow(/At most 6 decimal places/);
    expect(() => displayToAtomic('1.5', 0)).toThrow(/no decimal places/);
  });

  it('rejects invalid decimals and absurd sizes', () => {
    expect(() => displayToAtomic('1', 31)).toThrow(/decimals/);
    expect(() => displayToAtomic('1', -1)).toThrow(/decimals/);
    expect(() => displayToAtomic('1', 1.5)).toThrow(/decimals/);
    expect(() => displayToAtomic('9'.repeat(80), 0)).toThrow(/too large/);
  });
});

describe('atomicToDisplay', () => {
  it('formats exactly, trimming trailing zeros', () => {
    expect(atomicToDisplay(12_500_000n, 6)).toBe('12.5');
    expect(atomicToDisplay('1', 6)).toBe('0.000001');
    expect(atomicToDisplay(0n, 6)).toBe('0');
    expect(atomicToDisplay(-1_500_000n, 6)).toBe('-1.5');
    expect(atomicToDisplay(42n, 0)).toBe('42');
  });

  it('groups thousands and keeps minimum fraction digits for display', () => {
    expect(atomicToDisplay(1_234_567_890_000n, 6, { grouping: true })).toBe('1,234,567.89');
    expect(atomicToDisplay(1_000_000n, 6, { minFractionDigits: 2 })).toBe('1.00');
    expect(atomicToDisplay(1_000_000n, 0, { minFractionDigits: 2 })).toBe('1000000');
    expect(atomicToDisplay(-1_234_000_000n, 6, { grouping: true })).toBe('-1,234');
  });
});

describe('atomic strings', () => {
  it('accept canonical non-negative integers only', () => {
    expect(AtomicAmountSchema.safeParse('0').success).toBe(true);
    expect(AtomicAmountSchema.safeParse('340282366920938463463374607431768211456').success).toBe(
      true,
    );
    for (const bad of ['', '01', '-1', '1.0', '1e3', ' 1', '+1']) {
      expect(AtomicAmountSchema.safeParse(bad).success).toBe(false);
    }
    expect(SignedAtomicAmountSchema.safeParse('-5').success).toBe(true);
    expect(SignedAtomicAmountSchema.safeParse('-0').success).toBe(false);
    expect(parseAtomic('123')).toBe(123n);
    expect(() => parseAtomic('1.5')).toThrow(AmountFormatError);
  });
});

const compare = (x: bigint, y: bigint) => (x < y ? -1 : x > y ? 1 : 0);

describe('properties', () => {
  const decimals = fc.integer({ min: 0, max: 30 });
  // Well beyond 2^128 to prove there is no precision ceiling.
  const atomic = fc.bigInt({ min: 0n, max: 2n ** 200n });

  it('round-trips atomic -> display -> atomic for any decimals', () => {
    fc.assert(
      fc.property(atomic, decimals, (value, d) => {
        expect(displayToAtomic(atomicToDisplay(value, d), d)).toBe(value);
      }),
    );
  });

  it('preserves ordering through the display form', () => {
    fc.assert(
      fc.property(atomic, atomic, decimals, (a, b, d) => {
        const backA = displayToAtomic(atomicToDisplay(a, d), d);
        const backB = displayToAtomic(atomicToDisplay(b, d), d);
        expect(compare(backA, backB)).toBe(compare(a, b));
      }),
    );
  });

  it('formats every negative value as the minus of its absolute value', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2n ** 160n }), decimals, (value, d) => {
        expect(atomicToDisplay(-value, d)).toBe(`-${atomicToDisplay(value, d)}`);
      }),
    );
  });
});
