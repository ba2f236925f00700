import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditPageOf } from '../../../features/audit/audit-fixtures';
import { renderWithApp } from '../../../test/render';
import { startApiTestServer } from '../../../test/test-server';
import type { TestServer } from '../../../test/test-server';
import { AuditPage } from './audit-page';

/**
 * The stand-in log grows between requests: a request without snapshotAt sees it "now" (a later
 * snapshot, more rows); one with snapshotAt sees it as it stood then.
 */
let server: TestServer;
let now = 0;
const SNAPSHOTS = [
  '2026-03-01T10:00:00.000Z',
  '2026-03-01T10:05:00.000Z',
  '2026-03-01T10:09:00.000Z',
];
const totalAt = (snapshotAt: string) => 12 + SNAPSHOTS.indexOf(snapshotAt) * 7;
// The page reads its size from the answer; a small one keeps the rendered table small.
const LIMIT = 5;

beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/audit', (request) => {
    const query = new URL(request.path, 'http://x').searchParams;
    const snapshotAt = query.get('snapshotAt') ?? SNAPSHOTS[now++] ?? '';
    return {
      body: auditPageOf({
        page: Number(query.get('page')),
        limit: LIMIT,
        snapshotAt,
        total: totalAt(snapshotAt),
      }),
    };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  now = 0;
});

const auditPaths = () =>
  server.requests.map((r) => r.path).filter((p) => p.startsWith('/bff/audit'));

describe('AuditPage', () => {
  it('holds the first page’s snapshotAt in the address while paging forward and back', async () => {
    const user = userEvent.setup();
    const { router } = renderWithApp(<AuditPage />, { path: '/audit' });
    const pages = await screen.findByRole('navigation', { name: 'Audit log pages' });
    expect(pages).toHaveTextContent('Page 1 of 3 · 12 actions');
    const table = screen.getByRole('table', { name: 'Audit log' });
    expect(within(table).getAllByRole('row')).toHaveLength(6);

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => {
      expect(pages).toHaveTextContent('Page 2 of 3 · 12 actions');
    });
    const held = new URLSearchParams(router.state.location.search);
    expect(held.get('page')).toBe('2');
    expect(held.get('snapshotAt')).toBe(SNAPSHOTS[0]);

    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => {
      expect(pages).toHaveTextContent('Page 1 of 3 · 12 actions');
    });
    expect(auditPaths()).toEqual([
      '/bff/audit?page=1',
      `/bff/audit?page=2&snapshotAt=${encodeURIComponent(SNAPSHOTS[0] ?? '')}`,
      `/bff/audit?page=1&snapshotAt=${encodeURIComponent(SNAPSHOTS[0] ?? '')}`,
    ]);
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Show latest' }));
    await waitFor(() => {
      expect(pages).toHaveTextContent('Page 1 of 4 · 19 actions');
    });
    expect(router.state.location.search).toBe('');
  });

  it('sends the filters from the address, and applying new ones starts over at a new snapshot', async () => {
    const user = userEvent.setup();
    const { router } = renderWithApp(<AuditPage />, {
      path: `/audit?operator=treasury&page=2&snapshotAt=${SNAPSHOTS[0] ?? ''}`,
    });
    await screen.findByRole('navigation', { name: 'Audit log pages' });
    expect(auditPaths()).toEqual([
      `/bff/audit?operator=treasury&page=2&snapshotAt=${encodeURIComponent(SNAPSHOTS[0] ?? '')}`,
    ]);
    expect(screen.getByRole('textbox', { name: 'Operator' })).toHaveValue('treasury');

    await user.type(screen.getByRole('textbox', { name: 'Action' }), 'withdrawal.create');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => {
      expect(auditPaths()).toHaveLength(2);
    });
    expect(auditPaths()[1]).toBe('/bff/audit?action=withdrawal.create&operator=treasury&page=1');
    expect(router.state.location.search).toBe('?operator=treasury&action=withdrawal.create');
  });

  it('links each id of a row to its timeline and exports the filtered log', async () => {
    renderWithApp(<AuditPage />, { path: '/audit?action=wallet.create' });
    const table = await screen.findByRole('table', { name: 'Audit log' });
    expect(within(table).getByRole('link', { name: 'up-req-1' })).toHaveAttribute(
      'href',
      '/timeline?q=up-req-1',
    );
    expect(
      within(table).getByRole('button', { name: 'Copy correlation id corr-12' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export audit CSV' })).toBeInTheDocument();
  });
});
