import { describe, expect, it } from 'vitest';
import { keepTerminalDetail, keepTerminalPage, keepTerminalPages, newerOf } from './status-order';

const tx = (status: string, extra: Record<string, unknown> = {}) => ({
  id: 'tx_1',
  status,
  ...extra,
});

describe('status order', () => {
  it('keeps a cached CONFIRMED transaction when a lagging refetch says PENDING', () => {
    const cached = tx('CONFIRMED');
    expect(newerOf(cached, tx('PENDING'))).toBe(cached);
    expect(keepTerminalDetail(cached, tx('PENDING'))).toEqual(cached);
  });

  it('keeps a cached terminal status against a different terminal one (terminal is final)', () => {
    const cached = tx('FAILED_ON_CHAIN');
    expect(newerOf(cached, tx('CONFIRMED'))).toBe(cached);
    expect(newerOf(cached, tx('FAILED_ON_CHAIN', { confirmations: 19 }))).toEqual(
      tx('FAILED_ON_CHAIN', { confirmations: 19 }),
    );
  });

  it('accepts forward moves', () => {
    expect(keepTerminalDetail(tx('PENDING'), tx('CONFIRMED'))).toEqual(tx('CONFIRMED'));
    expect(
      keepTerminalDetail(tx('PENDING', { confirmations: 1 }), tx('PENDING', { confirmations: 2 })),
    ).toEqual(tx('PENDING', { confirmations: 2 }));
    expect(keepTerminalDetail(undefined, tx('PENDING'))).toEqual(tx('PENDING'));
  });

  it('applies the rule row by row in cursor-paged lists', () => {
    const previous = {
      pages: [{ items: [tx('FAILED'), { id: 'tx_2', status: 'PENDING' }], nextCursor: null }],
      pageParams: [null],
    };
    const next = {
      pages: [{ items: [tx('PENDING'), { id: 'tx_2', status: 'CONFIRMED' }], nextCursor: null }],
      pageParams: [null],
    };
    const merged = keepTerminalPages(previous, next) as typeof next;
    expect(merged.pages[0]!.items.map((item) => item.status)).toEqual(['FAILED', 'CONFIRMED']);
  });

  it('keeps referential identity of unchanged data (structural sharing)', () => {
    const previous = {
      pages: [{ items: [tx('CONFIRMED')], nextCursor: null }],
      pageParams: [null],
    };
    const next = { pages: [{ items: [tx('CONFIRMED')], nextCursor: null }], pageParams: [null] };
    expect(keepTerminalPages(previous, next)).toBe(previous);
  });

  it('applies the rule row by row in a single page, keeping it when nothing changed', () => {
    const previous = { items: [tx('FAILED'), { id: 'tx_2', status: 'PENDING' }], nextCursor: null };
    const next = { items: [tx('PENDING'), { id: 'tx_2', status: 'CONFIRMED' }], nextCursor: null };
    const merged = keepTerminalPage(previous, next) as typeof next;
    expect(merged.items.map((item) => item.status)).toEqual(['FAILED', 'CONFIRMED']);
    const same = { items: [tx('FAILED'), { id: 'tx_2', status: 'PENDING' }], nextCursor: null };
    expect(keepTerminalPage(previous, same)).toBe(previous);
  });
});
