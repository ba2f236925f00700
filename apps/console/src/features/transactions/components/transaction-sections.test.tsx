import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WalletDirectoryContext } from '../../../components/ui/wallet-name';
import { renderWithApp } from '../../../test/render';
import { screenIs } from '../../../test/screen-width';
import { BalanceEffects, NetworkFee } from './transaction-sections';
import {
  confirmedTrx,
  decimalsFor,
  failedBeforeBroadcast,
  pendingTrx,
  revertedUsdt,
  withStatus,
  valueOf,
} from '../transaction-fixtures';

describe('NetworkFee', () => {
  it('labels the estimate and says no fee was charged on a withdrawal that failed before broadcast', () => {
    render(<NetworkFee transaction={failedBeforeBroadcast} decimalsFor={decimalsFor} />);
    expect(valueOf('Estimate')).toHaveTextContent('1.1TRX (estimate)');
    expect(valueOf('Actual')).toHaveTextContent('None: never broadcast, no fee was charged');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says the actual fee is not known before broadcast', () => {
    render(<NetworkFee transaction={pendingTrx} decimalsFor={decimalsFor} />);
    expect(valueOf('Actual')).toHaveTextContent('Not charged yet (known once broadcast)');
  });

  it('labels the burned fee of FAILED_ON_CHAIN as actual', () => {
    render(<NetworkFee transaction={revertedUsdt} decimalsFor={decimalsFor} />);
    expect(valueOf('Actual')).toHaveTextContent('13.45TRX (actual, charged on chain)');
  });

  it('flags an actual fee the balance effects never charged', () => {
    // What the sandbox used to send: an actual fee on a FAILED withdrawal whose reserve was
    // released in full.
    const contradictory = withStatus(failedBeforeBroadcast, {
      networkFeeSummary: {
        ...failedBeforeBroadcast.networkFeeSummary!,
        actualFeeAtomic: '1100000',
      },
    });
    render(<NetworkFee transaction={contradictory} decimalsFor={decimalsFor} />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Charged 0TRX, which differs from the actual fee reported.',
    );
  });
});

describe('BalanceEffects', () => {
  it("names each effect's wallet as the treasury knows it, linked to the wallet", () => {
    const treasuryWallet = {
      id: 'wal_1',
      accountName: 'Operations',
      chain: 'tron:nile',
      address: 'TDHHmYT4BeuUDw4JQPMFbTayhNrSJtLxWo',
      label: 'Hot wallet',
    };
    renderWithApp(
      <WalletDirectoryContext value={(id) => (id === 'wal_1' ? treasuryWallet : undefined)}>
        <BalanceEffects transaction={confirmedTrx} decimalsFor={decimalsFor} />
      </WalletDirectoryContext>,
    );
    const table = screen.getByRole('table', { name: 'Balance effects' });
    const links = within(table).getAllByRole('link', { name: /Hot wallet/ });
    expect(links).toHaveLength(2);
    for (const link of links) expect(link).toHaveAttribute('href', '/wallets/wal_1');
    expect(within(table).queryByText('wal_1')).not.toBeInTheDocument();
  });

  describe('on a phone', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('are cards, each with its kind, asset, time, exact changes and wallet, and no table', () => {
      screenIs('phone');
      renderWithApp(<BalanceEffects transaction={revertedUsdt} decimalsFor={decimalsFor} />);
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
      const cards = within(screen.getByRole('list', { name: 'Balance effects' })).getAllByRole(
        'listitem',
      );
      expect(cards.map((card) => card.querySelector('p')?.textContent)).toEqual([
        expect.stringMatching(/^RESERVE USDT/),
        expect.stringMatching(/^RESERVE TRX/),
        expect.stringMatching(/^POST USDT/),
        expect.stringMatching(/^POST TRX/),
      ]);
      const burned = within(cards[3] ?? document.body);
      expect(burned.getByText('Posted change').nextElementSibling).toHaveTextContent(/^-13\.45$/);
      expect(burned.getByText('Reserved change').nextElementSibling).toHaveTextContent(/^-30$/);
      expect(burned.getByText('Wallet').nextElementSibling).toHaveTextContent(/\S/);
      expect(burned.getByRole('time')).toBeInTheDocument();
    });

    it('stay a table on a wide screen', () => {
      screenIs('desktop');
      renderWithApp(<BalanceEffects transaction={revertedUsdt} decimalsFor={decimalsFor} />);
      expect(screen.getByRole('table', { name: 'Balance effects' })).toBeInTheDocument();
      expect(screen.queryByRole('list', { name: 'Balance effects' })).not.toBeInTheDocument();
    });
  });
});
