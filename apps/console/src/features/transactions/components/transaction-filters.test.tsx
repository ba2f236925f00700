import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TransactionFilters } from './transaction-filters';

const suggestions = {
  accounts: [
    { id: 'acc_ops', name: 'Operations' },
    { id: 'acc_pay', name: 'Payroll' },
  ],
  wallets: [
    { id: 'w_ops', name: 'Operations · Nile · 2Wo — TDHHmYT4BeuUDw4JQPMFbTayhNrSJtLxWo' },
    { id: 'w_pay', name: 'Payroll · Nile · 1a2b — TXyz9Vb1sGQ3b5q3dvH1x2Zb8mJ6Qz1a2b' },
  ],
};

function renderFilters() {
  const onChange = vi.fn();
  render(
    <TransactionFilters
      filters={{}}
      assets={['TRX']}
      suggestions={suggestions}
      onChange={onChange}
    />,
  );
  return { user: userEvent.setup(), onChange };
}

describe('TransactionFilters', () => {
  it('filters by an account and a wallet typed by name, applied as their ids', async () => {
    const { user, onChange } = renderFilters();
    await user.type(screen.getByRole('combobox', { name: 'Account' }), 'payroll ');
    await user.type(screen.getByRole('combobox', { name: 'Wallet' }), 'TDHHmYT4');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(onChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ accountId: 'acc_pay', walletId: 'w_ops' }),
    );
    // The fields now hold the ids, each named beside its label.
    expect(screen.getByRole('combobox', { name: 'Wallet' })).toHaveValue('w_ops');
    expect(screen.getByTitle(suggestions.wallets[0]!.name)).toBeVisible();
  });

  it('applies an id pasted from elsewhere as it is', async () => {
    const { user, onChange } = renderFilters();
    await user.type(screen.getByRole('combobox', { name: 'Wallet' }), ' 5b3a5893-5290 ');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(onChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ walletId: '5b3a5893-5290' }),
    );
  });
});
