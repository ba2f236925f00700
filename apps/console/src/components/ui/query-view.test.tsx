import { useQuery } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render';
import { EmptyState } from './empty-state';
import { QueryView } from './query-view';
import { TableSkeleton } from './skeleton';

function Items({ load }: { load: () => Promise<string[]> }) {
  const query = useQuery({ queryKey: ['items'], queryFn: load });
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
});
