import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { renderWithApp } from '../../test/render';
import { ErrorPanel, isRetryable } from './error-panel';

function apiError(code: string, status: number, retryable: boolean): ApiError {
  return new ApiError({ status, code, message: 'x', requestId: 'req-1', retryable, details: [] });
}

describe('ErrorPanel', () => {
  it.each([
    ['a 404', apiError('RESOURCE_NOT_FOUND', 404, false)],
    ['PLAN_LIMIT_REACHED', apiError('PLAN_LIMIT_REACHED', 403, false)],
    ['a 403', apiError('FORBIDDEN', 403, false)],
  ])('offers no "Try again" on %s: asking again gets the same answer', (_name, error) => {
    renderWithApp(<ErrorPanel error={error} onRetry={vi.fn()} />);
    expect(screen.getByRole('alert')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(isRetryable(error)).toBe(false);
  });

  it('offers "Try again" on a retryable error', () => {
    const onRetry = vi.fn();
    renderWithApp(
      <ErrorPanel error={apiError('UPSTREAM_UNAVAILABLE', 503, true)} onRetry={onRetry} />,
    );
    screen.getByRole('button', { name: 'Try again' }).click();
    expect(onRetry).toHaveBeenCalledOnce();
  });
});
