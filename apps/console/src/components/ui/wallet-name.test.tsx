import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { WalletDirectoryContext, WalletName, type WalletIdentity } from './wallet-name';

const ADDRESS = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
const known: WalletIdentity = {
  id: 'w1',
  accountName: 'Payouts',
  chain: 'tron:nile',
  address: ADDRESS,
  label: null,
};

function renderName(ui: React.ReactElement, directory: Record<string, WalletIdentity> = {}) {
  return render(
    <MemoryRouter>
      <WalletDirectoryContext value={(id) => directory[id]}>{ui}</WalletDirectoryContext>
    </MemoryRouter>,
  );
}

describe('WalletName', () => {
  it('shows the default label (account, chain, last 4) and the short address, linked', () => {
    renderName(<WalletName walletId="w1" />, { w1: known });
    const link = screen.getByRole('link', { name: /Payouts · Nile · YqeL/ });
    expect(link).toHaveAttribute('href', '/wallets/w1');
    expect(link).toHaveTextContent('TNPeea…YqeL');
    expect(screen.getByTitle(ADDRESS)).toBeInTheDocument();
  });

  it('shows the treasury label instead of the default when there is one', () => {
    renderName(<WalletName walletId="w1" />, { w1: { ...known, label: 'Hot wallet' } });
    expect(screen.getByRole('link', { name: /Hot wallet/ })).toHaveTextContent('TNPeea…YqeL');
    expect(screen.queryByText(/Payouts/)).not.toBeInTheDocument();
  });

  it('leaves the address out when the caller shows it (hasAddress false)', () => {
    renderName(<WalletName walletId="w1" hasAddress={false} />, { w1: known });
    expect(screen.getByRole('link', { name: 'Payouts · Nile · YqeL' })).toHaveTextContent(
      /^Payouts · Nile · YqeL$/,
    );
    expect(screen.queryByTitle(ADDRESS)).not.toBeInTheDocument();
  });

  it('falls back to what the caller has, and to the short id for an unknown wallet', () => {
    renderName(
      <>
        <WalletName
          walletId="w2"
          wallet={{ ...known, id: 'w2', accountName: 'Ops' }}
          isLink={false}
        />
        <WalletName walletId="wal_0123456789abcdef" isLink={false} />
      </>,
    );
    expect(screen.getByText('Ops · Nile · YqeL')).toBeInTheDocument();
    expect(screen.getByText('Wallet wal_01…cdef')).toHaveAttribute('title', 'wal_0123456789abcdef');
    expect(screen.getByText('Ops · Nile · YqeL')).not.toHaveAttribute('title');
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });
});
