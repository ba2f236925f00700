import { describe, expect, it } from 'vitest';
import { eventSummary } from './event-summary';

describe('eventSummary', () => {
  it('summarises an event in one line', () => {
    expect(eventSummary({ data: { status: 'CONFIRMED', asset: 'TRX', amountAtomic: '5' } })).toBe(
      'CONFIRMED · 5 atomic TRX',
    );
    expect(eventSummary({ data: { txHash: 'ab12', confirmations: 1 } })).toBe('1 conf.');
    expect(eventSummary({ data: { name: 'Merchant Z' } })).toBe('Merchant Z');
  });

  it("shows an amount in the asset's decimals, exactly, when the catalog knows the asset", () => {
    const big = {
      data: { status: 'PENDING', asset: 'USDT', amountAtomic: '123456789012345678901' },
    };
    expect(eventSummary(big, (asset) => (asset === 'USDT' ? 6 : null))).toBe(
      'PENDING · 123,456,789,012,345.678901 USDT',
    );
  });

  it('tells apart the updates of one withdrawal by their stage and confirmations', () => {
    expect(
      eventSummary({ data: { status: 'PENDING', stage: 'BROADCAST', confirmations: 1 } }),
    ).toBe('PENDING · BROADCAST · 1 conf.');
  });
});
