import { BalanceSchema } from '@settlement/protocol';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screenIs } from '../../../test/screen-width';
import { BalancesTable } from './balances-table';

const DECIMALS: Record<string, number> = { TRX: 6, BTT: 18 };
const decimalsFor = (asset: string) => DECIMALS[asset] ?? null;

const balances = [
  {
    asset: 'TRX',
    chain: 'tron:nile',
    postedBalance: '1500000000',
    reservedBalance: '250000000',
    availableBalance: '1250000000',
  },
  {
    asset: 'BTT',
    chain: 'tron:nile',
    postedBalance: '2000000000000000000000',
    reservedBalance: '0',
    availableBalance: '2000000000000000000000',
  },
].map((balance) => BalanceSchema.parse(balance));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the balances', () => {
  it('are cards on a phone, each asset with its chain and exact posted, reserved and available, and no table', () => {
    screenIs('phone');
    render(<BalancesTable balances={balances} decimalsFor={decimalsFor} label="Wallet balances" />);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(screen.getByRole('list', { name: 'Wallet balances' })).getAllByRole(
      'listitem',
    );
    expect(cards).toHaveLength(2);
    const [trx, btt] = cards;
    if (!trx || !btt) throw new Error('two cards');
    const facts = within(trx);
    expect(trx).toHaveTextContent(/^TRX/);
    expect(facts.getByText('Chain').nextElementSibling).toHaveTextContent(/^tron:nile$/);
    expect(facts.getByText('Posted').nextElementSibling).toHaveTextContent(/^1,500$/);
    expect(facts.getByText('Reserved').nextElementSibling).toHaveTextContent(/^250$/);
    expect(facts.getByText('Available').nextElementSibling).toHaveTextContent(/^1,250$/);
    expect(facts.getByTitle('1250000000 atomic units')).toBeInTheDocument();
    expect(btt).toHaveTextContent(/^BTT/);
    expect(within(btt).getByText('Available').nextElementSibling).toHaveTextContent(/^2,000$/);
  });

  it('are a table on a wide screen, and no list', () => {
    screenIs('desktop');
    render(<BalancesTable balances={balances} decimalsFor={decimalsFor} label="Wallet balances" />);
    expect(screen.queryByRole('list', { name: 'Wallet balances' })).not.toBeInTheDocument();
    const rows = within(screen.getByRole('table', { name: 'Wallet balances' })).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'AssetChainPostedReservedAvailable',
      'TRXtron:nile1,5002501,250',
      'BTTtron:nile2,00002,000',
    ]);
  });

  it('shows the empty state on a phone too when there are none', () => {
    screenIs('phone');
    render(<BalancesTable balances={[]} decimalsFor={decimalsFor} />);
    expect(screen.getByText('No balances yet')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Balances' })).not.toBeInTheDocument();
  });

  describe("beside the wallet's open requests", () => {
    // 900 TRX in 2 requests; nothing of BTT. 2^53 + 1 atomic units stay exact.
    const open = (committed: Record<string, bigint>, isAtLeast = false) => ({
      committedFor: (asset: string) => {
        const amountAtomic = committed[asset] ?? 0n;
        return { amountAtomic, count: amountAtomic > 0n ? 2 : 0 };
      },
      isAtLeast,
    });

    it('add a column on a wide screen, with a dash for an asset no request takes, and say why', () => {
      screenIs('desktop');
      render(
        <BalancesTable
          balances={balances}
          decimalsFor={decimalsFor}
          label="Wallet balances"
          openRequests={open({ TRX: 900_000_000n })}
        />,
      );
      const rows = within(screen.getByRole('table', { name: 'Wallet balances' })).getAllByRole(
        'row',
      );
      expect(rows.map((row) => row.textContent)).toEqual([
        'AssetChainPostedReservedAvailableIn open requests',
        'TRXtron:nile1,5002501,250900 in 2',
        'BTTtron:nile2,00002,000—',
      ]);
      expect(screen.getByText(/Available still includes them/)).toBeInTheDocument();
    });

    it('add a field to the card of an asset a request takes, on a phone', () => {
      screenIs('phone');
      render(
        <BalancesTable
          balances={balances}
          decimalsFor={decimalsFor}
          label="Wallet balances"
          openRequests={open({ TRX: 2n ** 53n + 1n }, true)}
        />,
      );
      const [trx, btt] = within(screen.getByRole('list', { name: 'Wallet balances' })).getAllByRole(
        'listitem',
      );
      if (!trx || !btt) throw new Error('two cards');
      expect(within(trx).getByText('In open requests').nextElementSibling).toHaveTextContent(
        /^at least 9,007,199,254\.740993 in 2 or more$/,
      );
      expect(within(btt).queryByText('In open requests')).not.toBeInTheDocument();
    });

    it('add nothing while no request of the wallet is open, or while unknown', () => {
      screenIs('desktop');
      const { rerender } = render(
        <BalancesTable balances={balances} decimalsFor={decimalsFor} openRequests={open({})} />,
      );
      expect(screen.queryByText('In open requests')).not.toBeInTheDocument();
      rerender(<BalancesTable balances={balances} decimalsFor={decimalsFor} openRequests={null} />);
      expect(screen.queryByText('In open requests')).not.toBeInTheDocument();
      expect(screen.queryByText(/Available still includes them/)).not.toBeInTheDocument();
      expect(screen.queryByText(/could not be read/)).not.toBeInTheDocument();
    });

    it.each(['desktop', 'phone'] as const)(
      'say once, with no column or field, that Available may include what they promise when their lists are unreadable (%s)',
      (width) => {
        screenIs(width);
        render(
          <BalancesTable
            balances={balances}
            decimalsFor={decimalsFor}
            label="Wallet balances"
            openRequests="unreadable"
          />,
        );
        expect(screen.getByRole('note')).toHaveTextContent(
          'Open withdrawal requests could not be read: Available may include money they already promise.',
        );
        expect(screen.queryByText('In open requests')).not.toBeInTheDocument();
        expect(screen.queryByText(/Available still includes them/)).not.toBeInTheDocument();
      },
    );
  });
});
