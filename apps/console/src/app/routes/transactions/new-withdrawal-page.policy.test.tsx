import type { PolicyDecision } from '@settlement/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  addressBookEntryFixture,
  decisionFixture,
  policyBlockedFixture,
  withdrawalRequestFixture,
} from '../../../test/governance-fixtures';
import { savePendingWithdrawal } from '../../../features/transactions/model/pending-withdrawal';
import { loadDraft } from '../../../features/transactions/model/withdrawal-draft';
import { renderWithApp, sessionFor } from '../../../test/render';
import { envelope, startApiTestServer } from '../../../test/test-server';
import type { Reply, TestServer } from '../../../test/test-server';
import { NewWithdrawalPage } from './new-withdrawal-page';
import { routeOneActiveWallet, routeWithdrawalBasics, walletOne } from './withdrawal-page-routes';

/** The withdrawal form under the withdrawal policy: dry run, address book, 202 and 403. */

const EXTERNAL = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const BOOKED = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const NOW = '2026-01-01T00:00:00Z';
const wallet = walletOne(NOW);
const book = [
  addressBookEntryFixture({ id: 'ab_ex', label: 'Exchange hot wallet', address: BOOKED }),
  addressBookEntryFixture({
    id: 'ab_pending',
    label: 'New vendor',
    address: EXTERNAL,
    status: 'PENDING_APPROVAL',
    approvedBy: null,
    approvedAt: null,
  }),
  addressBookEntryFixture({ id: 'ab_main', label: 'Mainnet cold', chain: 'tron:mainnet' }),
];

let server: TestServer;
let postReply: () => Reply;
let dryRunReply: () => Reply;

beforeAll(async () => {
  server = await startApiTestServer();
  routeOneActiveWallet(server, wallet);
  routeWithdrawalBasics(server, NOW);
  server.route('GET', '/bff/address-book', () => ({ body: { items: book } }));
  server.route('POST', '/bff/policy/dry-run', () => dryRunReply());
  server.route('POST', '/bff/api/v1/transactions', () => postReply());
  // The operations journal knows only what went upstream: a request held for approval is not in it.
  server.route('GET', '/bff/operations/*', () => envelope('RESOURCE_NOT_FOUND', 404, 'req-no-op'));
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  sessionStorage.clear();
  dryRunReply = () => ({ body: decisionFixture() });
});

const dryRuns = () => server.requests.filter((r) => r.path === '/bff/policy/dry-run');
const posts = () =>
  server.requests.filter((r) => r.method === 'POST' && r.path === '/bff/api/v1/transactions');

async function openForm() {
  const user = userEvent.setup();
  const rendered = renderWithApp(<NewWithdrawalPage />, {
    path: '/transactions/new?walletId=wal_1',
    session: sessionFor('treasury'),
  });
  await screen.findByTitle('10000000 atomic units');
  return { user, ...rendered };
}

async function fill(address: string, amount = '2') {
  const opened = await openForm();
  fireEvent.change(screen.getByLabelText('Destination address'), { target: { value: address } });
  fireEvent.change(screen.getByLabelText('Amount (TRX)'), { target: { value: amount } });
  await screen.findByText(/Not one of your organization's wallets/);
  return opened;
}

function policyRegion() {
  return screen.getByRole('region', { name: 'Withdrawal policy' });
}

async function review(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Review withdrawal' }));
  await screen.findByRole('heading', { name: 'Review the withdrawal' });
}

describe('NewWithdrawalPage under the withdrawal policy', () => {
  it('asks the dry run only once wallet, asset, address and amount are valid, and shows its answer', async () => {
    await openForm();
    fireEvent.change(screen.getByLabelText('Destination address'), {
      target: { value: EXTERNAL },
    });
    expect(policyRegion()).toHaveTextContent(
      /Once the wallet, asset, address and amount are valid/,
    );
    fireEvent.change(screen.getByLabelText('Amount (TRX)'), { target: { value: '2' } });
    await waitFor(() => {
      expect(policyRegion()).toHaveTextContent(
        'Needs 1 approval from admin before anything is sent (rule "Any other destination").',
      );
    });
    expect(dryRuns()).toHaveLength(1);
    expect(dryRuns()[0]!.body).toEqual({
      walletId: 'wal_1',
      asset: 'TRX',
      toAddress: EXTERNAL,
      amountAtomic: '2000000',
    });
  });

  it('shows a block by a limit with what is left, and a blocked withdrawal cannot reach the review', async () => {
    const blocked: PolicyDecision = decisionFixture({
      action: 'BLOCK',
      approvals: null,
      blockedByLimit: 'daily-trx',
      reasons: ['Limit "Daily TRX" would be exceeded: 9000000 used of 10000000 in 24 h.'],
      limits: [
        {
          id: 'daily-trx',
          name: 'Daily TRX',
          scope: 'WALLET',
          asset: 'TRX',
          windowHours: 24,
          usedAtomic: '9000000',
          maxAtomic: '10000000',
          remainingAtomic: '1000000',
          wouldExceed: true,
        },
      ],
    });
    dryRunReply = () => ({ body: blocked });
    await fill(EXTERNAL);
    await waitFor(() => {
      expect(policyRegion()).toHaveTextContent('Blocked by limit "Daily TRX".');
    });
    expect(policyRegion()).toHaveTextContent('ask an admin');
    expect(within(policyRegion()).getByRole('list', { name: 'Limits' })).toHaveTextContent(
      'Daily TRX: 1 TRX left of 10 TRX in 24 h (9 TRX used) — this withdrawal would exceed it',
    );
    expect(screen.getByRole('button', { name: 'Review withdrawal' })).toBeDisabled();
    expect(screen.getByText('The withdrawal policy blocks this withdrawal.')).toBeVisible();
    expect(posts()).toHaveLength(0);
  });

  it('says when the policy could not be asked, and still lets the operator review', async () => {
    dryRunReply = () => envelope('INTERNAL_ERROR', 500, 'req-dry');
    const { user } = await fill(EXTERNAL);
    await waitFor(() => {
      expect(policyRegion()).toHaveTextContent('The policy’s answer could not be read');
    });
    await review(user);
  });

  it('202: says plainly nothing left the wallet, who must approve, links the request and clears the draft', async () => {
    const held = withdrawalRequestFixture({ id: 'wr_42', toAddress: EXTERNAL });
    postReply = () => ({ status: 202, body: { withdrawalRequest: held } });
    const { user } = await fill(EXTERNAL);
    expect(loadDraft('treasury')).not.toBeNull();
    await review(user);
    await user.click(await screen.findByRole('button', { name: 'Request approval' }));

    expect(
      await screen.findByRole('heading', {
        name: 'Sent for approval — nothing has left the wallet yet',
      }),
    ).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent('needs 1 approval from admin');
    expect(screen.getByText('wr_42')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the request' })).toHaveAttribute(
      'href',
      '/approvals/wr_42',
    );
    expect(posts()).toHaveLength(1);
    // Neither the unsent draft nor the pending record outlives the request.
    expect(sessionStorage.length).toBe(0);

    await user.click(screen.getByRole('button', { name: 'Start a new withdrawal' }));
    expect(screen.getByLabelText('Destination address')).toHaveValue('');
  });

  it('403 POLICY_BLOCKED: names the rule, says to ask an admin, and offers no retry', async () => {
    postReply = () =>
      envelope('POLICY_BLOCKED', 403, 'req-blocked', [
        policyBlockedFixture({ rule: { id: 'no-external', name: 'No external' } }),
      ]);
    const { user } = await fill(EXTERNAL);
    await review(user);
    await user.click(await screen.findByRole('button', { name: 'Request approval' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Blocked by the policy rule "No external".');
    expect(alert).toHaveTextContent(/ask an admin to change the withdrawal policy/i);
    expect(
      screen.queryByRole('button', { name: /Send withdrawal|Request approval|Retry/ }),
    ).toBeNull();
    expect(posts()).toHaveLength(1);
  });

  it('when the policy needs approval, the review offers "Request approval" rather than a send', async () => {
    const { user } = await fill(EXTERNAL);
    await waitFor(() => {
      expect(policyRegion()).toHaveTextContent('Needs 1 approval from admin');
    });
    await review(user);
    expect(screen.getByRole('button', { name: 'Request approval' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Send withdrawal' })).toBeNull();
  });

  it('offers ACTIVE address-book entries of the wallet chain by label and names the typed address', async () => {
    const { user } = await openForm();
    const picker = screen.getByLabelText('Address book');
    const labels = within(picker)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(labels).toEqual(['Choose a saved tron:nile address', `Exchange hot wallet — ${BOOKED}`]);
    await user.selectOptions(picker, 'ab_ex');
    expect(screen.getByLabelText('Destination address')).toHaveValue(BOOKED);
    expect(await screen.findByText(/In the address book as/)).toHaveTextContent(
      'In the address book as Exchange hot wallet.',
    );

    fireEvent.change(screen.getByLabelText('Destination address'), {
      target: { value: EXTERNAL },
    });
    expect(screen.getByText(/still pending an admin’s approval/)).toHaveTextContent(
      'In the address book as New vendor, but still pending',
    );
  });

  it('the review names the address-book label of the destination', async () => {
    dryRunReply = () => ({
      body: decisionFixture({
        action: 'ALLOW',
        rule: { id: 'book', name: 'Address book, TRX below 1,000' },
        approvals: null,
        destination: { isAddressBook: true, isInternal: false },
      }),
    });
    const { user } = await fill(BOOKED);
    await waitFor(() => {
      expect(policyRegion()).toHaveTextContent('Will send now');
    });
    await review(user);
    expect(screen.getByText('Address book: Exchange hot wallet')).toBeInTheDocument();
    expect(policyRegion()).toHaveTextContent('Will send now');
    expect(screen.getByRole('button', { name: 'Send withdrawal' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Request approval' })).toBeNull();
  });

  it('after a reload, sending again under the saved operation id shows the request held for approval', async () => {
    savePendingWithdrawal('treasury', 'op-held', {
      walletId: 'wal_1',
      asset: 'TRX',
      toAddress: EXTERNAL,
      amountAtomic: '2000000',
    });
    postReply = () => ({
      status: 202,
      body: {
        withdrawalRequest: withdrawalRequestFixture({ id: 'wr_held', operationId: 'op-held' }),
      },
    });
    const user = userEvent.setup();
    renderWithApp(<NewWithdrawalPage />, {
      path: '/transactions/new',
      session: sessionFor('treasury'),
    });
    expect(await screen.findByText(/if the withdrawal policy already holds it/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Send it now (same operation id)' }));
    await screen.findByRole('heading', {
      name: 'Sent for approval — nothing has left the wallet yet',
    });
    expect(posts()[0]!.headers['x-operation-id']).toBe('op-held');
    expect(screen.getByRole('link', { name: 'Open the request' })).toHaveAttribute(
      'href',
      '/approvals/wr_held',
    );
    expect(sessionStorage.length).toBe(0);
  });
});
