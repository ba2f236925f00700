import { describe, expect, it } from 'vitest';
import type { CallSpan, Reply } from './bff-client';
import { createFreezeCheck } from './freeze-check';
import type { FrozenSpan } from './processes';

const unavailable = (retryable: boolean): Reply => ({
  status: 503,
  json: { code: 'UPSTREAM_UNAVAILABLE', message: 'The upstream is not reachable.', retryable },
  text: '',
  requestId: 'r1',
});
const ok: Reply = { status: 200, json: {}, text: '{}', requestId: 'r2' };
const timedOut: Reply = { status: 0, error: 'The operation was aborted due to timeout' };
const refused: Reply = { status: 0, error: 'connect ECONNREFUSED 127.0.0.1:1' };

const call = (startedMs: number, endedMs: number, reply: Reply): CallSpan => ({
  url: 'http://127.0.0.1:1',
  method: 'GET',
  path: '/bff/overview',
  timeoutMs: 15_000,
  startedMs,
  endedMs,
  reply,
});

function setup(sandbox: FrozenSpan[], bff: FrozenSpan[] = []) {
  return createFreezeCheck({ sandbox: { frozen: sandbox }, bffs: [{ frozen: bff }] });
}

describe('createFreezeCheck', () => {
  it('reports a call held past its timeout while the sandbox was frozen and no BFF was', () => {
    const check = setup([{ fromMs: 1_000, toMs: 17_000 }]);
    check.observe(call(2_000, 17_000, timedOut));
    expect(check.problems).toHaveLength(1);
    expect(check.problems[0]).toMatch(/GET \/bff\/overview .* no answer within 15 s/);
    expect(check.summary()).toBe(
      '1 calls met a frozen sandbox (0 more a frozen BFF too): no answer x1; slowest answer 0.0 s',
    );
  });

  it('counts answers and retryable 503s, and reports a 503 UPSTREAM_UNAVAILABLE not retryable', () => {
    const check = setup([{ fromMs: 1_000, toMs: null }]);
    check.observe(call(500, 2_000, ok));
    check.observe(call(2_000, 14_500, unavailable(true)));
    expect(check.problems).toEqual([]);
    check.observe(call(2_000, 14_500, unavailable(false)));
    expect(check.problems).toEqual(['GET /bff/overview: 503 UPSTREAM_UNAVAILABLE not retryable']);
    expect(check.summary()).toBe(
      '3 calls met a frozen sandbox (0 more a frozen BFF too): 200 x1, ' +
        '503 UPSTREAM_UNAVAILABLE x2; slowest answer 12.5 s',
    );
  });

  it('leaves out calls outside every sandbox freeze, calls that met a frozen BFF, refusals', () => {
    const check = setup([{ fromMs: 10_000, toMs: 20_000 }], [{ fromMs: 5_000, toMs: 11_000 }]);
    check.observe(call(0, 10_000, timedOut));
    check.observe(call(20_000, 35_000, timedOut));
    check.observe(call(9_000, 24_000, timedOut));
    check.observe(call(12_000, 12_100, refused));
    expect(check.problems).toEqual([]);
    expect(check.summary()).toBe(
      '1 calls met a frozen sandbox (1 more a frozen BFF too): refused or reset x1; ' +
        'slowest answer 0.0 s',
    );
  });
});
