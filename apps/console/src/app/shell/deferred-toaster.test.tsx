import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { areToastsWanted, showToast } from '../../lib/toasts';
import { DeferredToaster } from './deferred-toaster';

describe('DeferredToaster', () => {
  it('mounts no toast region until the first toast, then shows that toast', async () => {
    render(<DeferredToaster />);
    // Long enough for a region that did load (a lazy module the test has in hand) to mount.
    await act(async () => {
      await import('sonner');
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(areToastsWanted()).toBe(false);
    expect(screen.queryByRole('region', { name: /^Notifications/ })).toBeNull();

    // Asked for before the region exists: it appears once the region mounts.
    act(() => {
      showToast('success', 'Label saved.');
    });
    expect(await screen.findByText('Label saved.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: /^Notifications/ })).toBeInTheDocument();
    expect(document.querySelector('[data-sonner-toaster]')?.getAttribute('dir')).toBe('ltr');

    act(() => {
      showToast('error', 'Transaction failed (USDT)');
    });
    expect(await screen.findByText('Transaction failed (USDT)')).toBeInTheDocument();
  });
});
