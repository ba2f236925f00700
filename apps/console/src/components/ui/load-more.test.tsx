import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LoadMore } from './load-more';

const query = (overrides: Partial<Parameters<typeof LoadMore>[0]['query']> = {}) => ({
  hasNextPage: true,
  isFetchingNextPage: false,
  fetchNextPage: vi.fn(() => Promise.resolve()),
  ...overrides,
});

describe('LoadMore', () => {
  it('offers nothing when the server reports no next page', () => {
    render(<LoadMore query={query({ hasNextPage: false })} />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('fetches the next page on click, and waits while one is loading', async () => {
    const idle = query();
    const { rerender } = render(<LoadMore query={idle} />);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(idle.fetchNextPage).toHaveBeenCalledTimes(1);
    rerender(<LoadMore query={query({ isFetchingNextPage: true })} />);
    expect(screen.getByRole('button', { name: 'Loading…' })).toBeDisabled();
  });
});
