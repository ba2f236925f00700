import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { showToast } from '../../lib/toasts';
import { DeferredToaster } from './deferred-toaster';

// The toast library's chunk cannot load (offline, or replaced by a newer console's build).
vi.mock('sonner', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

describe('DeferredToaster when the toast library cannot load', () => {
  it('loses the toast, not the page, and leaves no unhandled rejection', async () => {
    render(
      <>
        <p>The transaction page</p>
        <DeferredToaster />
      </>,
    );
    act(() => {
      showToast('success', 'Withdrawal accepted');
    });
    // Both loads (the region's and the toast's) have failed by then.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(screen.getByText('The transaction page')).toBeInTheDocument();
    expect(screen.queryByText('Withdrawal accepted')).toBeNull();
    expect(screen.queryByRole('region', { name: /^Notifications/ })).toBeNull();
  });
});
