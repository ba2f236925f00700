import { SupportSearchResultSchema } from '@settlement/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { confirmedTrx } from '../../../features/transactions/transaction-fixtures';
import { renderWithApp } from '../../../test/render';
import { envelope, heldReply, startApiTestServer } from '../../../test/test-server';
import type { Reply, TestServer } from '../../../test/test-server';
import { TransactionDetailPage } from './transaction-detail-page';
import { expectStillWaitingOnceSlow } from '../../../test/slow-answer';

let server: TestServer;
let transactionReply: () => Reply | Promise<Reply>;
let searchReply: () => Reply;

beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/api/v1/assets', () => ({ body: { items: [] } }));
  server.route('GET', `/bff/api/v1/transactions/${confirmedTrx.id}`, () => transactionReply());
  server.route('GET', '/bff/support/search', () => searchReply());
});
afterAll(() => server.close());
beforeEach(() => {
  transactionReply = () => ({ body: confirmedTrx });
  searchReply = () => ({
    body: SupportSearchResultSchema.parse({ query: confirmedTrx.id, kinds: ['transactionId'] }),
  });
});

function renderPage() {
  return renderWithApp(
    <Routes>
      <Route path="/transactions/:transactionId" element={<TransactionDetailPage />} />
    </Routes>,
    { path: `/transactions/${confirmedTrx.id}` },
  );
}

describe('TransactionDetailPage', () => {
  it('shows the transaction though its stored events could not be read, and reads them again on "Try again"', async () => {
    searchReply = () => envelope('UPSTREAM_UNAVAILABLE', 503, 'bff_req_search');
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Stored events could not be loaded');
    expect(screen.getByRole('list', { name: 'Status timeline' })).toBeInTheDocument();

    searchReply = () => ({
      body: SupportSearchResultSchema.parse({ query: confirmedTrx.id, kinds: ['transactionId'] }),
    });
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await expect.poll(() => screen.queryAllByRole('alert')).toHaveLength(0);
  });

  it('says a transaction the service is slow to answer is still being waited for', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // Answered only once the test is over.
    const { handler, release: answer } = heldReply({ body: confirmedTrx });
    try {
      transactionReply = handler;
      renderPage();
      await expectStillWaitingOnceSlow();
    } finally {
      answer();
      vi.useRealTimers();
    }
  });
});
