import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WALLET_FILTERS } from '../../features/wallets/api/keys';
import { useUrlFilters } from '../../lib/url-filters';
import { renderWithApp, sessionFor } from '../../test/render';
import { startApiTestServer, type TestServer } from '../../test/test-server';
import { PageViewsMenu } from './page-views-menu';

let server: TestServer;
beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/saved-views*', () => ({
    body: {
      items: [
        {
          id: 'sv_1',
          name: 'Team view',
          subject: 'wallets',
          filters: { status: 'ACTIVE' },
          visibility: 'organization',
          owner: 'treasury',
          createdAt: '2026-03-01T00:00:00.000Z',
          updatedAt: '2026-03-01T00:00:00.000Z',
        },
      ],
    },
  }));
});
afterAll(async () => {
  await server.close();
});

function WalletsViews() {
  const [filters, setFilters] = useUrlFilters(WALLET_FILTERS);
  return (
    <>
      <PageViewsMenu
        subject="wallets"
        names={WALLET_FILTERS}
        filters={filters}
        onApply={setFilters}
      />
      <output aria-label="filters">{JSON.stringify(filters)}</output>
    </>
  );
}

describe('PageViewsMenu', () => {
  it('puts a view’s filters in the address bar and lets an admin delete a shared view', async () => {
    const user = userEvent.setup();
    const { router } = renderWithApp(<WalletsViews />, {
      path: '/wallets',
      session: sessionFor('admin'),
    });
    await user.click(screen.getByRole('button', { name: 'Views' }));
    const panel = await screen.findByRole('region', { name: 'Saved views' });
    expect(
      await within(panel).findByRole('button', { name: 'Delete view Team view' }),
    ).toBeVisible();
    await user.click(within(panel).getByRole('button', { name: 'Team view' }));
    expect(router.state.location.search).toBe('?status=ACTIVE');
    expect(screen.getByRole('status', { name: 'filters' })).toHaveTextContent(
      '{"status":"ACTIVE"}',
    );
  });
});
