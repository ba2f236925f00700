import type { SavedView } from '@settlement/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { startApiTestServer, type TestServer } from '../../../test/test-server';
import { ViewsMenu, viewFilters } from './views-menu';

const NAMES = ['status', 'asset'] as const;

function view(overrides: Partial<SavedView>): SavedView {
  return {
    id: 'sv_1',
    name: 'Failed',
    subject: 'transactions',
    filters: { status: 'FAILED' },
    visibility: 'personal',
    owner: 'support',
    createdAt: '2026-03-01T00:00:00.000Z',
    updatedAt: '2026-03-01T00:00:00.000Z',
    ...overrides,
  };
}

let server: TestServer;
let views: SavedView[] = [];
beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/saved-views*', () => ({ body: { items: views } }));
  server.route('POST', '/bff/saved-views', (request) => {
    const body = request.body as Pick<SavedView, 'name' | 'filters' | 'visibility'>;
    const created = view({ ...body, id: 'sv_new' });
    views = [...views, created];
    return { status: 201, body: created };
  });
  server.route('DELETE', '/bff/saved-views/*', (request) => {
    views = views.filter((v) => !request.path.endsWith(`/${v.id}`));
    return { status: 204 };
  });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  views = [
    view({}),
    view({
      id: 'sv_2',
      name: 'Team TRX',
      filters: { asset: 'TRX', walletId: 'w_1' },
      visibility: 'organization',
      owner: 'treasury',
    }),
  ];
});

function renderMenu(filters: Partial<Record<(typeof NAMES)[number], string>>, isAdmin = false) {
  const onApply = vi.fn();
  renderWithApp(
    <ViewsMenu
      subject="transactions"
      names={NAMES}
      filters={filters}
      onApply={onApply}
      operator={{ username: 'support', isAdmin }}
    />,
  );
  return onApply;
}

describe('ViewsMenu', () => {
  it('applies a saved view with only the list’s own filter names', async () => {
    const user = userEvent.setup();
    const onApply = renderMenu({ status: 'FAILED' });
    await user.click(screen.getByRole('button', { name: 'Views' }));
    const panel = await screen.findByRole('region', { name: 'Saved views' });
    expect(await within(panel).findByRole('button', { name: 'Failed' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    expect(within(panel).getByText('Shared by treasury')).toBeVisible();
    await user.click(within(panel).getByRole('button', { name: 'Team TRX' }));
    expect(onApply).toHaveBeenCalledWith({ asset: 'TRX' });
  });

  it('saves the current filters under a name, shared when asked', async () => {
    const user = userEvent.setup();
    renderMenu({ status: 'CONFIRMED', asset: 'TRX' });
    await user.click(screen.getByRole('button', { name: 'Views' }));
    const panel = await screen.findByRole('region', { name: 'Saved views' });
    await user.type(within(panel).getByLabelText('Save the current filters as'), ' Done TRX ');
    await user.click(within(panel).getByLabelText('Share with the organization'));
    await user.click(within(panel).getByRole('button', { name: 'Save view' }));
    expect(await within(panel).findByRole('button', { name: 'Done TRX' })).toBeVisible();
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'Done TRX',
      subject: 'transactions',
      filters: { status: 'CONFIRMED', asset: 'TRX' },
      visibility: 'organization',
    });
  });

  it('offers Delete on one’s own views, and on shared ones only to an admin', async () => {
    const user = userEvent.setup();
    renderMenu({});
    await user.click(screen.getByRole('button', { name: 'Views' }));
    const panel = await screen.findByRole('region', { name: 'Saved views' });
    await within(panel).findByRole('button', { name: 'Team TRX' });
    expect(within(panel).queryByRole('button', { name: 'Delete view Team TRX' })).toBeNull();
    await user.click(within(panel).getByRole('button', { name: 'Delete view Failed' }));
    expect(await within(panel).findByRole('button', { name: 'Team TRX' })).toBeVisible();
    await vi.waitFor(() => {
      expect(within(panel).queryByRole('button', { name: 'Failed' })).toBeNull();
    });
  });

  it('lets an admin delete a view shared by someone else', async () => {
    const user = userEvent.setup();
    renderMenu({}, true);
    await user.click(screen.getByRole('button', { name: 'Views' }));
    const panel = await screen.findByRole('region', { name: 'Saved views' });
    expect(
      await within(panel).findByRole('button', { name: 'Delete view Team TRX' }),
    ).toBeVisible();
  });
});

describe('viewFilters', () => {
  it('keeps the names of the list and drops empty values', () => {
    expect(viewFilters(NAMES, { status: 'FAILED', asset: '', walletId: 'w_1' })).toEqual({
      status: 'FAILED',
    });
  });
});
