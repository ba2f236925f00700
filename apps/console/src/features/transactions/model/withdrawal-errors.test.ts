import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { policyBlockedFixture } from '../../../test/governance-fixtures';
import { adviceFor } from './withdrawal-errors';

function apiError(code: string, status: number, message: string, retryable = false): ApiError {
  return new ApiError({ status, code, message, requestId: 'req-1', retryable, details: [] });
}

describe('adviceFor', () => {
  it("keeps the server's more specific message beside the console's advice", () => {
    const advice = adviceFor(
      apiError('INVALID_ADDRESS', 422, 'toAddress is the address of the source wallet.'),
    );
    expect(advice.detail).toBe('toAddress is the address of the source wallet.');
    expect(advice.advice).toBe('Check the destination address.');
    expect(advice).toMatchObject({ canRetry: false, mustEdit: true });
  });

  it('drops a server message that only repeats the code text', () => {
    const advice = adviceFor(
      apiError('INVALID_ADDRESS', 422, 'The destination address is not valid for this chain.'),
    );
    expect(advice.detail).toBeNull();
  });

  it('follows the code and retryable: no retry for a refusal, no "try again" wording', () => {
    expect(adviceFor(apiError('WITHDRAWALS_BLOCKED', 403, 'x')).canRetry).toBe(false);
    expect(adviceFor(apiError('UPSTREAM_UNAVAILABLE', 503, 'x', true)).canRetry).toBe(true);
    const unknown = adviceFor(apiError('SOMETHING_NEW', 409, 'x'));
    expect(unknown).toMatchObject({ canRetry: false, mustEdit: true });
    expect(unknown.advice).not.toMatch(/try again/i);
    expect(adviceFor(apiError('SOMETHING_NEW', 503, 'x', true)).canRetry).toBe(true);
  });
});

describe('adviceFor POLICY_BLOCKED', () => {
  const blocked = (details: unknown[]) =>
    new ApiError({
      status: 403,
      code: 'POLICY_BLOCKED',
      message: 'Rule "No USDT out" matches: BLOCK.',
      requestId: 'req-1',
      retryable: false,
      details,
    });

  it('names the rule, sends to an admin and never offers a retry', () => {
    const advice = adviceFor(blocked([policyBlockedFixture()]));
    expect(advice.title).toBe('Blocked by the policy rule "No USDT out".');
    expect(advice.advice).toMatch(/ask an admin/i);
    expect(advice.detail).toBe('Rule "No USDT out" matches: BLOCK.');
    expect(advice).toMatchObject({ canRetry: false, mustEdit: false });
  });

  it('names the limit when a limit blocks (a rule matched too)', () => {
    const advice = adviceFor(blocked([policyBlockedFixture({ limit: 'daily-trx' })]));
    expect(advice.title).toBe('Blocked by the withdrawal limit daily-trx.');
    expect(advice.advice).toMatch(/ask an admin to raise the limit/i);
    expect(advice.canRetry).toBe(false);
  });

  it('with no rule matched (or details it cannot read), says no rule allows it', () => {
    expect(adviceFor(blocked([policyBlockedFixture({ rule: null })])).title).toMatch(
      /no rule of the withdrawal policy allows/,
    );
    expect(adviceFor(blocked([{ unexpected: true }])).canRetry).toBe(false);
  });
});
