import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render';
import {
  confirmedTrx,
  decimalsFor,
  failedBeforeBroadcast,
  revertedUsdt,
  withStatus,
} from '../transaction-fixtures';
import { TransactionsTable } from './transactions-table';

// jsdom lays nothing out: give the virtualizer's scroll box a size so it renders rows.
beforeAll(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1024);
});
afterAll(() => {
  vi.restoreAllMocks();
});

function renderTable(transactions: Parameters<typeof TransactionsTable>[0]['transactions']) {
  return renderWithApp(
    <TransactionsTable
      transactions={transactions}
      decimalsFor={decimalsFor}
      hasNextPage={false}
      isFetchingNextPage={false}
      onLoadMore={() => undefined}
    />,
  );
}

function rowOf(id: string): HTMLElement {
  const link = screen.getByRole('link', { name: `Transaction ${id}` });
  const row = link.closest('tr');
  if (!row) throw new Error(`no row for ${id}`);
  return row;
}

describe('TransactionsTable', () => {
  it('shows FAILED and FAILED_ON_CHAIN amounts as not debited, struck and unsigned', async () => {
    renderTable([confirmedTrx, failedBeforeBroadcast, revertedUsdt]);
    await screen.findByRole('link', { name: 'Transaction tx_failed' });
    for (const id of ['tx_failed', 'tx_reverted']) {
      const row = within(rowOf(id));
      expect(row.getByText('not debited')).toBeInTheDocument();
      const amount = row.getByTitle(/atomic units/);
      expect(amount).toHaveClass('line-through');
      expect(amount.textContent).not.toMatch(/^-/);
    }
    const confirmed = within(rowOf('tx_confirmed'));
    expect(confirmed.queryByText('not debited')).not.toBeInTheDocument();
    expect(confirmed.getByTitle('-20000000 atomic units')).not.toHaveClass('line-through');
  });

  it('says "not credited" for a failed credit leg', async () => {
    renderTable([withStatus(failedBeforeBroadcast, { direction: 'CREDIT' })]);
    expect(await screen.findByText('not credited')).toBeInTheDocument();
  });

  it('aligns every amount of the column on the decimal point of the catalog decimals', async () => {
    renderTable([confirmedTrx, revertedUsdt]);
    await screen.findByRole('link', { name: 'Transaction tx_confirmed' });
    expect(within(rowOf('tx_confirmed')).getByText('-20')).toHaveStyle({ paddingRight: '7ch' });
    expect(within(rowOf('tx_reverted')).getByText('250.5')).toHaveStyle({
      paddingRight: '5ch',
    });
  });

  it('badges every row on a testnet, and none on mainnet', async () => {
    renderTable([confirmedTrx, withStatus(revertedUsdt, { chain: 'tron:mainnet' })]);
    await screen.findByRole('link', { name: 'Transaction tx_confirmed' });
    expect(within(rowOf('tx_confirmed')).getByText('Nile testnet')).toBeInTheDocument();
    expect(within(rowOf('tx_reverted')).queryByText('Nile testnet')).not.toBeInTheDocument();
  });
});
