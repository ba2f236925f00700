import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { screenIs } from '../../../test/screen-width';
import { withdrawalRequestFixture } from '../../../test/governance-fixtures';
import { WalletDirectoryContext } from '../../../components/ui/wallet-name';
import { RequestsTable } from './requests-table';

const TO = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const DECIMALS: Record<string, number> = { TRX: 6 };
const decimalsFor = (asset: string) => DECIMALS[asset] ?? null;

const request = withdrawalRequestFixture({
  toAddress: TO,
  amountAtomic: '1250500000',
  approvalsRequired: { count: 2, fromRoles: ['admin'] },
  approvals: [{ operator: 'admin', role: 'admin', at: '2026-01-01T01:00:00.000Z' }],
  updatedAt: '2026-01-01T01:00:00.000Z',
});

const OPS_WALLET = {
  id: request.walletId,
  accountName: 'Operations',
  chain: 'tron:nile',
  address: 'TNcAc4i5vFSwtSQw3CSC4Ah5Q5beyKueMq',
  label: 'Ops hot wallet',
};

/** The requests as the app shows them: the shell's directory knows the org's wallets. */
function renderRequests() {
  return renderWithApp(
    <WalletDirectoryContext value={(id) => (id === OPS_WALLET.id ? OPS_WALLET : undefined)}>
      <RequestsTable requests={[request]} decimalsFor={decimalsFor} />
    </WalletDirectoryContext>,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the withdrawal requests', () => {
  it('are cards on a phone that open with the amount and status, then every fact and a link to the request', () => {
    screenIs('phone');
    renderRequests();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const [card, ...others] = within(
      screen.getByRole('list', { name: 'Withdrawal requests' }),
    ).getAllByRole('listitem');
    if (!card) throw new Error('one card');
    expect(others).toHaveLength(0);
    const facts = within(card);
    expect(card).toHaveTextContent(/^1,250\.5\s*TRX\s*AWAITING APPROVAL/);
    expect(facts.getByTitle('1250500000 atomic units')).toBeInTheDocument();
    // Which wallet the money leaves, by the name the treasury gave it and its short address.
    expect(facts.getByText('From').nextElementSibling).toHaveTextContent(
      'Ops hot walletaddress TNcAc4…ueMq',
    );
    expect(facts.getByText('Destination').nextElementSibling).toHaveTextContent(TO);
    expect(facts.getByText('Requester').nextElementSibling).toHaveTextContent(/^treasury$/);
    expect(facts.getByText('Approvals').nextElementSibling).toHaveTextContent(/^1 of 2$/);
    expect(facts.getByText('Requested').nextElementSibling?.querySelector('time')).toHaveAttribute(
      'dateTime',
      '2026-01-01T00:00:00.000Z',
    );
    expect(facts.getByRole('link', { name: /^Open request by treasury/ })).toHaveAttribute(
      'href',
      '/approvals/wr_1',
    );
  });

  it('are a table on a wide screen, each row linking to its request, and no list', () => {
    screenIs('desktop');
    renderRequests();
    expect(screen.queryByRole('list', { name: 'Withdrawal requests' })).not.toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Withdrawal requests' });
    const [, row] = within(table).getAllByRole('row');
    if (!row) throw new Error('one row');
    expect(row).toHaveTextContent(
      /treasury\s*1,250\.5\s*TRX\s*Ops hot wallet\s*address TNcAc4…ueMq\s*TLa2f6.*1 of 2\s*AWAITING APPROVAL$/,
    );
    expect(within(row).getByRole('link')).toHaveAttribute('href', '/approvals/wr_1');
  });
});
