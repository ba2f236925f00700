import { describe, expect, it } from 'vitest';
import { storeEngines } from '../test-support/engines';
import { createLoginThrottle } from './login-throttle';

describe.each(storeEngines())('login throttle ($name)', (engine) => {
  it('slows guessing across many usernames from one address, and forgets it within the hour', async () => {
    let at = 1_000_000;
    const throttle = createLoginThrottle(await engine.open(), () => at);
    for (let i = 0; i < 19; i += 1) await throttle.recordFailure(`user${i}`, '203.0.113.9');
    expect(await throttle.retryAfterMs('someone-else', '203.0.113.9')).toBe(0);
    await throttle.recordFailure('user19', '203.0.113.9');
    expect(await throttle.retryAfterMs('someone-else', '203.0.113.9')).toBeGreaterThan(0);
    // Another address is not affected.
    expect(await throttle.retryAfterMs('someone-else', '198.51.100.7')).toBe(0);
    // A success with one known account does not clear the address's count.
    await throttle.recordSuccess('user0', '203.0.113.9');
    expect(await throttle.retryAfterMs('someone-else', '203.0.113.9')).toBeGreaterThan(0);
    at += 60 * 60_000 + 1;
    expect(await throttle.retryAfterMs('someone-else', '203.0.113.9')).toBe(0);
  });

  it('never locks a pair for longer than 15 minutes, however many failures', async () => {
    let at = 0;
    const throttle = createLoginThrottle(await engine.open(), () => at);
    // The lock reaches its 15-minute cap at the 15th failure; 40 go well past it.
    for (let i = 0; i < 40; i += 1) await throttle.recordFailure('admin', '203.0.113.9');
    expect(await throttle.retryAfterMs('admin', '203.0.113.9')).toBeLessThanOrEqual(15 * 60_000);
    at += 15 * 60_000;
    expect(await throttle.retryAfterMs('admin', '203.0.113.9')).toBe(0);
  });

  it('counts failures recorded through another instance on the same database (replicas)', async () => {
    const sql = await engine.open();
    const a = createLoginThrottle(sql, () => 5_000);
    const b = createLoginThrottle(sql, () => 5_000);
    for (let i = 0; i < 5; i += 1) await (i % 2 === 0 ? a : b).recordFailure('admin', '192.0.2.1');
    expect(await a.retryAfterMs('admin', '192.0.2.1')).toBeGreaterThan(0);
    expect(await b.retryAfterMs('admin', '192.0.2.1')).toBeGreaterThan(0);
  });

  it('keys a username with a NUL byte as storable text', async () => {
    const throttle = createLoginThrottle(await engine.open(), () => 1);
    await throttle.recordFailure('ad\u0000min', '192.0.2.2');
    expect(await throttle.retryAfterMs('ad\u0000min', '192.0.2.2')).toBe(0);
  });
});
