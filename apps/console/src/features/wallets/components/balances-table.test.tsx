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
});
