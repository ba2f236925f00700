import { BalanceSchema, WalletSchema } from '@settlement/protocol';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { screenIs } from '../../../test/screen-width';
import { WalletsTable } from './wallets-table';

const ADDRESS = 'TDHHmYT4BeuUDw4JQPMFbTayhNrSJtLxWo';
const wallet = WalletSchema.parse({
  id: 'wal_nile',
  chain: 'tron:nile',
  accountId: 'acc_1',
  accountName: 'Merchant A',
  address: ADDRESS,
  status: 'ACTIVE',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const balances = [
  BalanceSchema.parse({
    asset: 'TRX',
    chain: 'tron:nile',
    postedBalance: '12500000',
    availableBalance: '12500000',
    reservedBalance: '0',
  }),
];
const decimalsFor = (asset: string) => (asset === 'TRX' ? 6 : null);

/** The cards of the list named `label`, not the list items nested in them. */
function cardsOf(label: string): HTMLElement[] {
  const list = screen.getByRole('list', { name: label });
  return within(list)
    .getAllByRole('listitem')
    .filter((item) => item.parentElement === list);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the wallets list', () => {
  it('is cards on a phone, each with its links, address, balance, chain, status and date, and no table', () => {
    screenIs('phone');
    renderWithApp(
      <WalletsTable wallets={[wallet]} balancesFor={() => balances} decimalsFor={decimalsFor} />,
    );
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const [card, ...others] = cardsOf('Wallets');
    if (!card) throw new Error('one card');
    expect(others).toHaveLength(0);
    const facts = within(card);
    expect(facts.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      '/wallets/wal_nile',
      '/accounts/acc_1',
    ]);
    expect(facts.getByRole('button', { name: 'Copy address' })).toBeInTheDocument();
    expect(facts.getByText('Available').nextElementSibling).toHaveTextContent(/^12\.5\s*TRX$/);
    expect(facts.getByText('Account').nextElementSibling).toContainElement(
      facts.getByRole('link', { name: 'Merchant A' }),
    );
    expect(facts.getByText('Chain').nextElementSibling).toHaveTextContent(
      /^tron:nile\s*Nile testnet$/,
    );
    expect(facts.getByText('Status').nextElementSibling).toHaveTextContent(/^ACTIVE$/);
    expect(facts.getByText('Created').nextElementSibling?.querySelector('time')).toHaveAttribute(
      'dateTime',
      '2026-01-01T00:00:00.000Z',
    );
  });

  it('leaves out the balance on a phone when the page has none, as the table leaves out its column', () => {
    screenIs('phone');
    renderWithApp(<WalletsTable wallets={[wallet]} label="Matching wallets" />);
    const [card] = cardsOf('Matching wallets');
    if (!card) throw new Error('one card');
    expect(within(card).queryByText('Available')).not.toBeInTheDocument();
    expect(within(card).getByText('Status')).toBeInTheDocument();
  });

  it('is a table on a wide screen, and no list', () => {
    screenIs('desktop');
    renderWithApp(
      <WalletsTable wallets={[wallet]} balancesFor={() => balances} decimalsFor={decimalsFor} />,
    );
    expect(screen.queryByRole('list', { name: 'Wallets' })).not.toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Wallets' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Wallet', 'Available', 'Account', 'Chain', 'Status', 'Created']);
    expect(within(table).getAllByRole('row')).toHaveLength(2);
  });

  it.each(['phone', 'desktop'] as const)(
    'shows the address once on a %s: the copyable one, not also under the name',
    (width) => {
      screenIs(width);
      renderWithApp(<WalletsTable wallets={[wallet]} />);
      expect(screen.getAllByTitle(ADDRESS)).toHaveLength(1);
      expect(screen.getByRole('link', { name: 'Merchant A · Nile · LxWo' })).toHaveTextContent(
        /^Merchant A · Nile · LxWo$/,
      );
      expect(screen.getByRole('button', { name: 'Copy address' })).toBeInTheDocument();
    },
  );
});
