import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
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
