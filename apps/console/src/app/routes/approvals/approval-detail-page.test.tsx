import {
  AssetCatalogSchema,
  BalanceListSchema,
  type WithdrawalRequest,
} from '@settlement/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withdrawalRequestFixture } from '../../../test/governance-fixtures';
import { renderWithApp, sessionFor } from '../../../test/render';
import { envelope, startApiTestServer } from '../../../test/test-server';
import type { Reply, TestServer } from '../../../test/test-server';
import { WalletDirectoryContext } from '../../../components/ui/wallet-name';
import { ApprovalDetailPage } from './approval-detail-page';

/** TRX is native (its flat fee comes from the same balance); USDT a token. */
const catalog = AssetCatalogSchema.parse({
  items: [
    ['TRX', null],
    ['USDT', 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf'],
  ].map(([asset, contractAddress]) => ({
    asset,
    name: asset,
    decimals: 6,
    chains: [{ chain: 'tron:nile', enabled: true, contractAddress }],
  })),
});

function balancesOf(available: Record<string, string>): Reply {
  return {
    body: BalanceListSchema.parse({
      items: Object.entries(available).map(([asset, availableBalance]) => ({
        asset,
        chain: 'tron:nile',
        postedBalance: availableBalance,
        availableBalance,
        reservedBalance: '0',
      })),
    }),
  };
}

let server: TestServer;
/** The request the page shows (wr_1, 8.9 TRX from wal_1 unless a test says otherwise). */
let shown: WithdrawalRequest;
let balancesReply: Reply;
/** The catalog answers once this settles. */
let catalogAnswered: Promise<void>;
/** Withdrawal requests by the `status` the list asks for. */
let requestsByStatus: Partial<Record<string, WithdrawalRequest[]>>;

beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/api/v1/assets', async () => {
    await catalogAnswered;
    return { body: catalog };
  });
  server.route('GET', '/bff/withdrawal-requests/wr_1', () => ({ body: shown }));
  server.route('GET', '/bff/withdrawal-requests', (request) => {
    const status = new URL(request.path, server.origin).searchParams.get('status') ?? '';
    return { body: { items: requestsByStatus[status] ?? [] } };
  });
  server.route('GET', '/bff/api/v1/wallets/wal_1/balances', () => balancesReply);
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  shown = withdrawalRequestFixture();
  balancesReply = balancesOf({ TRX: '20000000', USDT: '1000000000' });
  catalogAnswered = Promise.resolve();
  requestsByStatus = { AWAITING_APPROVAL: [shown], APPROVED: [] };
});

function renderPage() {
  return renderWithApp(
    <Routes>
      <Route path="/approvals/:requestId" element={<ApprovalDetailPage />} />
    </Routes>,
    { path: '/approvals/wr_1', session: sessionFor('admin') },
  );
}

/** Waits until the funds verdict says `text`: the balance, both lists and the catalog read. */
async function expectVerdict(text: string) {
  await waitFor(() => {
    const panel = screen.getByRole('heading', { name: 'Funds' }).closest('section');
    expect(within(panel ?? document.body).getByRole('status')).toHaveTextContent(text);
  });
}

/** The panel's value beside `label`. */
function row(label: string): HTMLElement {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling as HTMLElement;
}

describe('ApprovalDetailPage', () => {
  it('names the wallet the money leaves as the treasury knows it, linking to it', async () => {
    const opsWallet = {
      id: 'wal_1',
      accountName: 'Operations',
      chain: 'tron:nile',
      address: 'TNcAc4i5vFSwtSQw3CSC4Ah5Q5beyKueMq',
      label: null,
    };
    renderWithApp(
      <WalletDirectoryContext value={(id) => (id === 'wal_1' ? opsWallet : undefined)}>
        <Routes>
          <Route path="/approvals/:requestId" element={<ApprovalDetailPage />} />
        </Routes>
      </WalletDirectoryContext>,
      { path: '/approvals/wr_1', session: sessionFor('admin') },
    );
    await screen.findByText('From', { selector: 'dt' });
    const link = within(row('From')).getByRole('link');
    expect(link).toHaveTextContent('Operations · Nile · ueMqaddress TNcAc4…ueMq');
    expect(link).toHaveAttribute('href', '/wallets/wal_1');
  });
});

describe('ApprovalDetailPage funds check', () => {
  it('counts the other open requests of the same wallet and asset only, never the request itself', async () => {
    requestsByStatus = {
      AWAITING_APPROVAL: [
        shown,
        withdrawalRequestFixture({ id: 'wr_same', amountAtomic: '1000000' }),
        withdrawalRequestFixture({ id: 'wr_usdt', asset: 'USDT', amountAtomic: '50000000' }),
        withdrawalRequestFixture({ id: 'wr_other', walletId: 'wal_2', amountAtomic: '50000000' }),
      ],
      APPROVED: [
        withdrawalRequestFixture({ id: 'wr_sending', status: 'APPROVED', amountAtomic: '2000000' }),
      ],
    };
    renderPage();
    // 20 - (8.9 + 1.1 fee) - (3 + 2 x 1.1 fees).
    await expectVerdict('Covered: 4.8TRX left after this and the other open requests.');
    expect(row('Available now')).toHaveTextContent('20TRX');
    expect(row('Other open requests')).toHaveTextContent('3TRX in 2 requests, and their fees');
    expect(row('This request')).toHaveTextContent('8.9TRX and its 1.1TRX fee');
    expect(server.requests.map((r) => r.path)).toEqual(
      expect.arrayContaining([
        '/bff/api/v1/wallets/wal_1/balances',
        '/bff/withdrawal-requests?status=AWAITING_APPROVAL',
        '/bff/withdrawal-requests?status=APPROVED',
      ]),
    );
  });

  it('places the check before the Approve button, where the approver decides', async () => {
    renderPage();
    const heading = await screen.findByRole('heading', { name: 'Funds' });
    const approve = screen.getByRole('button', { name: 'Approve' });
    expect(
      heading.compareDocumentPosition(approve) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it('warns that the request may fail when the other open requests leave the wallet short', async () => {
    requestsByStatus = {
      AWAITING_APPROVAL: [shown],
      APPROVED: [
        withdrawalRequestFixture({
          id: 'wr_sending',
          status: 'APPROVED',
          amountAtomic: '15000000',
        }),
      ],
    };
    renderPage();
    // 8.9 + 1.1 + 15 + 1.1 = 26.1 of 20.
    await expectVerdict('Not covered: short by 6.1TRX. If approved, it may fail when sent.');
  });

  it('says the sums are "at least" when a list of open requests was full', async () => {
    requestsByStatus = {
      AWAITING_APPROVAL: [
        shown,
        ...Array.from({ length: 199 }, (_, index) =>
          withdrawalRequestFixture({ id: `wr_x${String(index)}`, walletId: 'wal_2' }),
        ),
      ],
      APPROVED: [withdrawalRequestFixture({ id: 'wr_sending', status: 'APPROVED' })],
    };
    renderPage();
    await expectVerdict('Covered, as far as listed: at most 0TRX left');
    expect(row('Other open requests')).toHaveTextContent('at least 8.9TRX in 1 or more requests');
  });

  it("counts no fee from a token's own balance (its fee is paid in TRX)", async () => {
    shown = withdrawalRequestFixture({ asset: 'USDT', amountAtomic: '1000000000' });
    requestsByStatus = { AWAITING_APPROVAL: [shown], APPROVED: [] };
    renderPage();
    await expectVerdict('Covered: 0USDT left after this and the other open requests.');
    expect(row('This request')).toHaveTextContent(/^1,000USDT$/);
  });

  it('judges nothing before the catalog says whether the asset pays its fee from the same balance', async () => {
    let answer: () => void = () => undefined;
    catalogAnswered = new Promise((resolve) => {
      answer = resolve;
    });
    // 8.9 + 1.1 of 10: covered only with the fee counted; without it, 1.1 would look left.
    balancesReply = balancesOf({ TRX: '10000000' });
    renderPage();
    // The balance and the other requests are in (amounts in atomic units, no catalog yet)...
    await waitFor(() => {
      expect(row('Available now')).toHaveTextContent('10000000');
      expect(row('Other open requests')).toHaveTextContent('None');
    });
    // ...but whether TRX pays its fee from this balance is not known: no verdict yet.
    expect(within(screen.getByRole('status')).queryByText(/Covered/)).toBeNull();
    await expectVerdict("Checking the wallet's balance…");
    answer();
    await expectVerdict('Covered: 0TRX left after this and the other open requests.');
  });

  it('never claims covered when the wallet balance cannot be read', async () => {
    balancesReply = envelope('UPSTREAM_UNAVAILABLE', 503, 'bff_req_1');
    renderPage();
    await expectVerdict(
      "Not checked: the wallet's balance could not be read, so whether it covers this request is unknown.",
    );
    expect(screen.queryByText(/covered/i)).toBeNull();
  });

  it('shows the check for a request awaiting approval, and none (nor a balance read) for a sent one', async () => {
    const awaiting = renderPage();
    // Its balance answered, so no read of it can reach the server after the count is reset.
    await expectVerdict('Covered:');
    awaiting.unmount();

    shown = withdrawalRequestFixture({ status: 'SUBMITTED', transactionId: 'tx_1' });
    server.requests.length = 0;
    renderPage();
    expect(await screen.findByText(/Approved and sent/)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Funds' })).toBeNull();
    expect(server.requests.map((r) => r.path)).not.toContain('/bff/api/v1/wallets/wal_1/balances');
  });
});
