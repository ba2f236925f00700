import { describe, expect, it } from 'vitest';
import { createLoginThrottle } from './login-throttle';

describe('login throttle', () => {
  it('slows guessing across many usernames from one address, and forgets it within the hour', () => {
    let at = 1_000_000;
    const throttle = createLoginThrottle(() => at);
    for (let i = 0; i < 19; i += 1) throttle.recordFailure(`user${i}`, '203.0.113.9');
    expect(throttle.retryAfterMs('someone-else', '203.0.113.9')).toBe(0);
    throttle.recordFailure('user19', '203.0.113.9');
    expect(throttle.retryAfterMs('someone-else', '203.0.113.9')).toBeGreaterThan(0);
    // Another address is not affected.
    expect(throttle.retryAfterMs('someone-else', '198.51.100.7')).toBe(0);
    // A success with one known account does not clear the address's count.
    throttle.recordSuccess('user0', '203.0.113.9');
    expect(throttle.retryAfterMs('someone-else', '203.0.113.9')).toBeGreaterThan(0);
    at += 60 * 60_000 + 1;
    expect(throttle.retryAfterMs('someone-else', '203.0.113.9')).toBe(0);
  });

  it('never locks a pair for longer than 15 minutes, however many failures', () => {
    let at = 0;
    const throttle = createLoginThrottle(() => at);
    for (let i = 0; i < 200; i += 1) throttle.recordFailure('admin', '203.0.113.9');
    expect(throttle.retryAfterMs('admin', '203.0.113.9')).toBeLessThanOrEqual(15 * 60_000);
    at += 15 * 60_000;
    expect(throttle.retryAfterMs('admin', '203.0.113.9')).toBe(0);
  });
});
