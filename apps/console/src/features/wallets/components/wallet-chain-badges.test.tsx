import type { Wallet } from '@settlement/protocol';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { WalletAddressCard } from './wallet-address-card';
import { WalletsTable } from './wallets-table';

const wallet = (id: string, chain: Wallet['chain']): Wallet => ({
  id,
  chain,
  accountId: 'acc_1',
  accountName: 'Merchant A',
  address: `T${id.padEnd(33, 'x')}`,
  status: 'ACTIVE',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

describe('testnet badges on wallets', () => {
  it('mark every Nile wallet in a table, and no mainnet one', () => {
    renderWithApp(
      <WalletsTable
        wallets={[wallet('wal_main', 'tron:mainnet'), wallet('wal_nile', 'tron:nile')]}
      />,
    );
    const [, mainnet, nile] = screen.getAllByRole('row');
    expect(within(nile!).getByText('Nile testnet')).toBeInTheDocument();
    expect(within(mainnet!).queryByText('Nile testnet')).not.toBeInTheDocument();
  });

  it('mark the deposit address of a Nile wallet', () => {
    renderWithApp(<WalletAddressCard wallet={wallet('wal_nile', 'tron:nile')} />);
    expect(screen.getByText('Nile testnet')).toBeInTheDocument();
  });

  it('leave a mainnet deposit address unmarked', () => {
    renderWithApp(<WalletAddressCard wallet={wallet('wal_main', 'tron:mainnet')} />);
    expect(screen.queryByText('Nile testnet')).not.toBeInTheDocument();
  });
});
