import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WS_BACKOFF_DEFAULTS, fullJitterDelay } from './backoff';

const REST = { baseMs: 100, capMs: 20_000 };

describe('fullJitterDelay', () => {
  it('stays within [0, min(cap, base * 2^(n-1))] for any retry and random value', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (retry, r) => {
          for (const options of [REST, WS_BACKOFF_DEFAULTS]) {
            const delay = fullJitterDelay(retry, options, () => r);
            const ceiling = Math.min(options.capMs, options.baseMs * 2 ** (retry - 1));
            expect(delay).toBeGreaterThanOrEqual(0);
            expect(delay).toBeLessThanOrEqual(ceiling);
          }
        },
      ),
    );
  });

  it('grows exponentially from the base up to the cap', () => {
    const top = () => 0.999999;
    expect(fullJitterDelay(1, REST, top)).toBe(99);
    expect(fullJitterDelay(2, REST, top)).toBe(199);
    expect(fullJitterDelay(30, REST, top)).toBe(19_999);
    expect(fullJitterDelay(1, WS_BACKOFF_DEFAULTS, () => 0.5)).toBe(500);
    expect(fullJitterDelay(4, WS_BACKOFF_DEFAULTS, () => 0.999)).toBe(7992);
    expect(fullJitterDelay(6, WS_BACKOFF_DEFAULTS, top)).toBe(29_999);
    expect(fullJitterDelay(10_000, WS_BACKOFF_DEFAULTS, top)).toBe(29_999);
  });

  it('is full jitter: a random draw of 0 retries at once', () => {
    expect(fullJitterDelay(3, WS_BACKOFF_DEFAULTS, () => 0)).toBe(0);
  });
});
