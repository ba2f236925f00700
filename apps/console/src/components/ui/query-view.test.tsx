import { useQuery } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { renderWithApp } from '../../test/render';
import { EmptyState } from './empty-state';
import { QueryView } from './query-view';
import { TableSkeleton } from './skeleton';
import { expectStillWaitingOnceSlow } from '../../test/slow-answer';

function Items({
  load,
  retry = false,
}: {
  load: () => Promise<string[]>;
  /** Retries after a long delay, so the query stays pending after its first failure. */
  retry?: boolean;
}) {
  const query = useQuery({
    queryKey: ['items'],
    queryFn: load,
    ...(retry ? { retry: 1, retryDelay: 60_000 } : {}),
  });
  return (
    <QueryView
      query={query}
      skeleton={<TableSkeleton label="Loading items" />}
      isEmpty={query.data?.length === 0}
      empty={<EmptyState title="No items yet" />}
    >
      {(items) => <p>{items.join(', ')}</p>}
    </QueryView>
  );
}

describe('QueryView', () => {
  it('shows the skeleton while pending, then the rendered data', async () => {
    let resolve: (items: string[]) => void = () => undefined;
    renderWithApp(<Items load={() => new Promise((r) => (resolve = r))} />);
    expect(await screen.findByRole('status', { name: 'Loading items' })).toBeInTheDocument();
    resolve(['a', 'b']);
    expect(await screen.findByText('a, b')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading items' })).not.toBeInTheDocument();
  });

  it('shows the empty state when the caller says the data is empty', async () => {
    renderWithApp(<Items load={() => Promise.resolve([])} />);
    expect(await screen.findByText('No items yet')).toBeInTheDocument();
  });

  it('shows the error with "Try again", which refetches', async () => {
    let calls = 0;
    const load = () => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error('boom')) : Promise.resolve(['back']);
    };
    renderWithApp(<Items load={load} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('boom');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('back')).toBeInTheDocument();
    expect(calls).toBe(2);
  });

  describe('a slow read', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('says it is still waiting once it has been pending a while, and not before', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      renderWithApp(<Items load={() => new Promise(() => undefined)} />);
      expect(await screen.findByRole('status', { name: 'Loading items' })).toBeInTheDocument();
      await expectStillWaitingOnceSlow();
      expect(screen.getByRole('status', { name: 'Loading items' })).toBeInTheDocument();
    });

    it('says what the failed attempt answered while it tries again', async () => {
      const unavailable = new ApiError({
        status: 503,
        code: 'UPSTREAM_UNAVAILABLE',
        message: '',
        requestId: 'req-1',
        retryable: true,
        details: [],
      });
      renderWithApp(<Items retry load={() => Promise.reject(unavailable)} />);
      expect(
        await screen.findByText(
          'Trying again. The last attempt said: A required upstream service is unavailable. It is safe to retry.',
        ),
      ).toBeInTheDocument();
      expect(screen.getByRole('status', { name: 'Loading items' })).toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });
  });
});
