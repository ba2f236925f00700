import { BalanceListSchema } from '@settlement/protocol';
import type { WithdrawalRequest } from '@settlement/protocol';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decisionFixture, withdrawalRequestFixture } from '../../../test/governance-fixtures';
import { renderWithApp, sessionFor } from '../../../test/render';
import { envelope, startApiTestServer } from '../../../test/test-server';
import type { TestServer } from '../../../test/test-server';
import { NewWithdrawalPage } from './new-withdrawal-page';
import { routeOneActiveWallet, routeWithdrawalBasics, walletOne } from './withdrawal-page-routes';
import { withdrawalRequestListQuery } from '../../../features/governance/api/withdrawal-requests';

/** The withdrawal form beside the wallet's open requests: not yet sent, so not yet reserved. */

const EXTERNAL = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const NOW = '2026-01-01T00:00:00Z';
const wallet = walletOne(NOW);

let server: TestServer;
/** Withdrawal requests by the `status` the list asks for. */
let requestsByStatus: Partial<Record<string, WithdrawalRequest[]>>;
/** wal_1's available TRX, in atomic units. */
let availableTrx: string;
/** The request lists answer 503. */
let isListFailing: boolean;

beforeAll(async () => {
  server = await startApiTestServer();
  routeOneActiveWallet(server, wallet);
  routeWithdrawalBasics(server, NOW);
  server.route('GET', '/bff/api/v1/wallets/wal_1/balances', () => ({
    body: BalanceListSchema.parse({
      items: [
        {
          asset: 'TRX',
          chain: 'tron:nile',
          postedBalance: availableTrx,
          availableBalance: availableTrx,
          reservedBalance: '0',
        },
      ],
    }),
  }));
  server.route('POST', '/bff/policy/dry-run', () => ({ body: decisionFixture() }));
  server.route('GET', '/bff/withdrawal-requests', (request) => {
    const status = new URL(request.path, server.origin).searchParams.get('status') ?? '';
    if (isListFailing) return envelope('UPSTREAM_UNAVAILABLE', 503, 'bff_req_1');
    return { body: { items: requestsByStatus[status] ?? [] } };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  sessionStorage.clear();
  availableTrx = '10000000';
  isListFailing = false;
  // wal_1 has promised 5 TRX (one request awaiting approval, one approved and being sent).
  requestsByStatus = {
    AWAITING_APPROVAL: [
      withdrawalRequestFixture({ id: 'wr_waiting', amountAtomic: '3000000' }),
      withdrawalRequestFixture({ id: 'wr_other_wallet', walletId: 'wal_2', amountAtomic: '1' }),
      withdrawalRequestFixture({ id: 'wr_usdt', asset: 'USDT', amountAtomic: '7000000' }),
    ],
    APPROVED: [
      withdrawalRequestFixture({ id: 'wr_sending', status: 'APPROVED', amountAtomic: '2000000' }),
    ],
  };
});

async function openForm() {
  renderWithApp(<NewWithdrawalPage />, {
    path: '/transactions/new?walletId=wal_1',
    session: sessionFor('treasury'),
  });
  return screen.findByText(/from this wallet:/);
}

function typeAmount(amount: string) {
  fireEvent.change(screen.getByLabelText('Amount (TRX)'), { target: { value: amount } });
}

const warning = () => screen.queryByText(/whichever is sent last would fail/);

describe('NewWithdrawalPage beside open requests', () => {
  it("under Available, counts only the chosen wallet's open requests of the chosen asset", async () => {
    const line = await openForm();
    // Not the 1 atomic unit of wal_2, nor wal_1's 7 USDT.
    expect(line).toHaveTextContent('2 open requests from this wallet: 5TRX');
  });

  it('warns, without blocking, only when amount and fee fit the available balance alone but not beside the open requests', async () => {
    const user = userEvent.setup();
    await openForm();
    // 1.7 + its 1.1 fee + 5 promised + their two 1.1 fees = exactly the 10 available.
    typeAmount('1.7');
    expect(warning()).not.toBeInTheDocument();

    typeAmount('1.700001');
    expect(warning()).toHaveTextContent(
      'With the 2 open requests from this wallet (5TRX and their fees), this and its 1.1TRX fee would exceed the available balance: whichever is sent last would fail.',
    );

    // Over the balance on its own: the existing check says so, and the warning steps aside.
    typeAmount('9');
    expect(await screen.findByText(/only 10 is available/)).toBeInTheDocument();
    expect(warning()).not.toBeInTheDocument();

    typeAmount('1.700001');
    fireEvent.change(screen.getByLabelText('Destination address'), {
      target: { value: EXTERNAL },
    });
    await screen.findByText(/Not one of your organization's wallets/);
    await user.click(screen.getByRole('button', { name: 'Review withdrawal' }));
    expect(
      await screen.findByRole('heading', { name: 'Review the withdrawal' }),
    ).toBeInTheDocument();
  });

  it('sums and compares amounts above 2^53 exactly', async () => {
    // 2^53 + 1 promised (and its 1.1 TRX fee); available leaves exactly 1 TRX and its fee.
    const committed = 2n ** 53n + 1n;
    availableTrx = (committed + 1_100_000n + 2_100_000n).toString();
    requestsByStatus = {
      APPROVED: [
        withdrawalRequestFixture({
          status: 'APPROVED',
          amountAtomic: committed.toString(),
        }),
      ],
    };
    const line = await openForm();
    expect(line).toHaveTextContent('1 open request from this wallet: 9,007,199,254.740993TRX');
    typeAmount('1');
    expect(warning()).not.toBeInTheDocument();
    typeAmount('1.000001');
    expect(warning()).toBeInTheDocument();
  });

  it('says when the open requests could not be read, rather than showing none', async () => {
    isListFailing = true;
    renderWithApp(<NewWithdrawalPage />, {
      path: '/transactions/new?walletId=wal_1',
      session: sessionFor('treasury'),
    });
    expect(
      await screen.findByText(/open requests from this wallet could not be read/),
    ).toHaveTextContent(
      'The open requests from this wallet could not be read: Available may include money they already promise.',
    );
    expect(screen.queryByText(/from this wallet:/)).toBeNull();
  });

  it('says so too when a later refresh of the lists fails, rather than summing the old ones', async () => {
    const { queryClient } = renderWithApp(<NewWithdrawalPage />, {
      path: '/transactions/new?walletId=wal_1',
      session: sessionFor('treasury'),
    });
    expect(await screen.findByText(/from this wallet:/)).toHaveTextContent(
      '2 open requests from this wallet: 5TRX',
    );
    isListFailing = true;
    await queryClient.refetchQueries({
      queryKey: withdrawalRequestListQuery('APPROVED').queryKey,
    });
    expect(
      await screen.findByText(/open requests from this wallet could not be read/),
    ).toBeInTheDocument();
    expect(screen.queryByText(/from this wallet:/)).toBeNull();
  });
});
