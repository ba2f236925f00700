import { EVENT_HISTORY_LIMIT_DEFAULT, type RelayedEvent } from '@settlement/protocol';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LoadMore } from '../../../components/ui/load-more';
import { renderWithApp } from '../../../test/render';
import { startApiTestServer, type TestServer } from '../../../test/test-server';
import type { EventFilters } from './keys';
import { useEventHistory } from './use-event-history';

function event(n: number): RelayedEvent {
  return {
    id: `evt_${String(n)}`,
    type: 'transaction.updated',
    occurredAt: '2026-03-01T12:00:00.000Z',
    orgId: 'org_test',
    correlationId: null,
    data: { note: `needle ${String(n)}` },
    sequence: n,
  };
}

type Page = { items: RelayedEvent[]; nextBefore: number | null; isWindowEnd: boolean };

let server: TestServer;
/** The pages the BFF answers, by the `before` asked for ('' for the newest). */
let pages: Map<string, Page>;

beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/events/history*', (request) => {
    const before = new URL(request.path, 'http://x').searchParams.get('before') ?? '';
    const page = pages.get(before);
    return page ? { body: page } : { status: 500, body: {} };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const befores = () =>
  server.requests.map((r) => new URL(r.path, 'http://x').searchParams.get('before') ?? '');

function History({ filters }: { filters: EventFilters }) {
  const history = useEventHistory(filters);
  return (
    <>
      <p data-testid="ids">{history.items.map((e) => e.id).join(' ')}</p>
      <p>{history.isSearchingOlder ? 'searching' : 'settled'}</p>
      <LoadMore query={history.loadMore} />
    </>
  );
}

const range = (from: number, to: number) =>
  Array.from({ length: from - to + 1 }, (_, i) => event(from - i));

describe('the filtered event history', () => {
  it('reads window after window by itself until it has a page of matches or reaches the oldest', async () => {
    pages = new Map([
      ['', { items: [], nextBefore: 9001, isWindowEnd: true }],
      ['9001', { items: [event(8500), event(8400)], nextBefore: 5001, isWindowEnd: true }],
      ['5001', { items: [], nextBefore: 1001, isWindowEnd: true }],
      ['1001', { items: [event(7)], nextBefore: null, isWindowEnd: true }],
    ]);
    renderWithApp(<History filters={{ q: 'needle' }} />);
    await waitFor(() => {
      expect(screen.getByTestId('ids')).toHaveTextContent('evt_8500 evt_8400 evt_7');
    });
    expect(screen.getByText('settled')).toBeInTheDocument();
    expect(befores()).toEqual(['', '9001', '5001', '1001']);
    // The oldest was reached: nothing more to load.
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('stops at a page of matches, and Load more asks for the next page of matches the same way', async () => {
    const full = EVENT_HISTORY_LIMIT_DEFAULT;
    pages = new Map([
      ['', { items: range(10_000 + full, 10_001), nextBefore: 10_001, isWindowEnd: false }],
      ['10001', { items: [], nextBefore: 4001, isWindowEnd: true }],
      ['4001', { items: [event(3000)], nextBefore: 2001, isWindowEnd: true }],
      ['2001', { items: range(1500 + full, 1501), nextBefore: 1501, isWindowEnd: false }],
      ['1501', { items: [event(9)], nextBefore: null, isWindowEnd: true }],
    ]);
    renderWithApp(<History filters={{ q: 'needle' }} />);
    const more = await screen.findByRole('button', { name: 'Load more' });
    // A whole page of matches came first: no window is read beyond it unasked.
    expect(befores()).toEqual(['']);
    await userEvent.click(more);
    // An empty window, then one match, then a page: a page of matches more than before.
    expect(await screen.findByRole('button', { name: 'Load more' })).toBeEnabled();
    expect(screen.getByText('settled')).toBeInTheDocument();
    expect(befores()).toEqual(['', '10001', '4001', '2001']);
    expect(screen.getByTestId('ids').textContent.split(' ')).toHaveLength(2 * full + 1);
  });

  it('stops reading windows when one could not be read, leaving the error to the page', async () => {
    pages = new Map([['', { items: [], nextBefore: 9001, isWindowEnd: true }]]);
    renderWithApp(<History filters={{ type: 'transaction.updated' }} />);
    await waitFor(() => {
      expect(befores()).toEqual(['', '9001']);
    });
    await waitFor(() => {
      expect(screen.getByText('settled')).toBeInTheDocument();
    });
    expect(befores()).toEqual(['', '9001']);
  });
});
