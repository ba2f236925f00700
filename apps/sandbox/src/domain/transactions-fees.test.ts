import { describe, expect, it } from 'vitest';
import { burnedFee, quoteFee } from './transactions-fees';

describe('quoteFee', () => {
  it('charges 1.1 TRX for a native transfer and refuses a fee limit there', () => {
    expect(quoteFee(false, undefined)).toEqual({
      ok: true,
      quote: {
        asset: 'TRX',
        estimatedFeeAtomic: 1_100_000n,
        reservedFeeAtomic: 1_100_000n,
        feeLimitAtomic: null,
      },
    });
    expect(quoteFee(false, '30000000').ok).toBe(false);
  });

  it('reserves the TRC-20 fee limit (default 30 TRX) and estimates at most 13.45 TRX', () => {
    const byDefault = quoteFee(true, undefined);
    expect(byDefault).toMatchObject({
      ok: true,
      quote: {
        estimatedFeeAtomic: 13_450_000n,
        reservedFeeAtomic: 30_000_000n,
        feeLimitAtomic: 30_000_000n,
      },
    });
    expect(quoteFee(true, '5000000')).toMatchObject({
      ok: true,
      quote: { estimatedFeeAtomic: 5_000_000n, reservedFeeAtomic: 5_000_000n },
    });
  });

  it('a quote carries no actual fee: that exists only once the chain burns it', () => {
    expect(quoteFee(false, undefined)).not.toHaveProperty('quote.actualFeeAtomic');
    expect(quoteFee(true, undefined)).not.toHaveProperty('quote.actualFeeAtomic');
  });

  it('burns 1.1 TRX for a native transfer and min(13.45 TRX, fee limit) for TRC-20', () => {
    expect(burnedFee(null)).toBe(1_100_000n);
    expect(burnedFee(30_000_000n)).toBe(13_450_000n);
    expect(burnedFee(5_000_000n)).toBe(5_000_000n);
  });

  it('accepts fee limits from 1 to 15,000 TRX only', () => {
    expect(quoteFee(true, '1000000').ok).toBe(true);
    expect(quoteFee(true, '15000000000').ok).toBe(true);
    expect(quoteFee(true, '999999').ok).toBe(false);
    expect(quoteFee(true, '0').ok).toBe(false);
    expect(quoteFee(true, '15000000001').ok).toBe(false);
  });
});
