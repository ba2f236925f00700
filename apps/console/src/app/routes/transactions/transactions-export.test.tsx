import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderWithApp, sessionFor } from '../../../test/render';
import { envelope, startApiTestServer } from '../../../test/test-server';
import type { TestServer } from '../../../test/test-server';
import { TransactionsPage } from './transactions-page';

let server: TestServer;
beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/api/v1/assets', () => ({ body: { items: [] } }));
  server.route('GET', '/bff/api/v1/transactions', () => ({
    body: { items: [], nextCursor: null },
  }));
  server.route('GET', '/bff/export/transactions.csv', () =>
    envelope('UPSTREAM_UNAVAILABLE', 503, 'req-export-9'),
  );
});
afterAll(() => server.close());

describe('TransactionsPage export', () => {
  it('exports every row matching the filters in the address, not the rows loaded', async () => {
    const user = userEvent.setup();
    renderWithApp(<TransactionsPage />, {
      path: '/transactions?status=PENDING&chain=tron%3Anile',
      session: sessionFor('support'),
    });
    await user.click(await screen.findByRole('button', { name: 'Export transactions CSV' }));
    await waitFor(() => {
      expect(server.requests.map((r) => r.path)).toContain(
        '/bff/export/transactions.csv?chain=tron%3Anile&status=PENDING',
      );
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Export failed');
  });
});
