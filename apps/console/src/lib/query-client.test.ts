import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { SLOW_FAILURE_MS, shouldRetryRead } from './query-client';

function failure(init: { retryable: boolean; elapsedMs: number }): ApiError {
  return new ApiError({
    status: init.retryable ? 503 : 400,
    code: init.retryable ? 'UPSTREAM_UNAVAILABLE' : 'VALIDATION_ERROR',
    message: '',
    requestId: 'req-1',
    details: [],
    ...init,
  });
}

describe('shouldRetryRead', () => {
  it('retries a quick retryable failure twice, then gives up', () => {
    const quick = failure({ retryable: true, elapsedMs: 120 });
    expect(shouldRetryRead(0, quick)).toBe(true);
    expect(shouldRetryRead(1, quick)).toBe(true);
    expect(shouldRetryRead(2, quick)).toBe(false);
  });

  it('does not retry what the interface says not to, however quick', () => {
    expect(shouldRetryRead(0, failure({ retryable: false, elapsedMs: 5 }))).toBe(false);
    expect(shouldRetryRead(0, new Error('not an answer of the BFF'))).toBe(false);
  });

  it('does not retry a failure that spent the BFF attempts waiting on the upstream', () => {
    expect(shouldRetryRead(0, failure({ retryable: true, elapsedMs: SLOW_FAILURE_MS }))).toBe(
      false,
    );
    expect(shouldRetryRead(0, failure({ retryable: true, elapsedMs: 31_400 }))).toBe(false);
    expect(shouldRetryRead(0, failure({ retryable: true, elapsedMs: SLOW_FAILURE_MS - 1 }))).toBe(
      true,
    );
  });
});
