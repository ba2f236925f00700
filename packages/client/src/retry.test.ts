import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REST_RETRY_DEFAULTS, WS_BACKOFF_DEFAULTS, fullJitterDelay, sleep } from './retry';

describe('fullJitterDelay', () => {
  it('stays within [0, min(cap, base * 2^(n-1))] for any retry and random value', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (retry, r) => {
          for (const options of [REST_RETRY_DEFAULTS, WS_BACKOFF_DEFAULTS]) {
            const delay = fullJitterDelay(retry, options, () => r);
            const ceiling = Math.min(options.capMs, options.baseMs * 2 ** (retry - 1));
            expect(delay).toBeGreaterThanOrEqual(0);
            expect(delay).toBeLessThanOrEqual(ceiling);
          }
        },
      ),
    );
  });

  it('grows exponentially up to the cap', () => {
    const top = () => 0.999999;
    expect(fullJitterDelay(1, REST_RETRY_DEFAULTS, top)).toBe(99);
    expect(fullJitterDelay(2, REST_RETRY_DEFAULTS, top)).toBe(199);
    expect(fullJitterDelay(30, REST_RETRY_DEFAULTS, top)).toBe(19_999);
    expect(fullJitterDelay(6, WS_BACKOFF_DEFAULTS, top)).toBe(29_999);
  });
});

describe('sleep', () => {
  it('rejects at once when its signal aborts', async () => {
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});
