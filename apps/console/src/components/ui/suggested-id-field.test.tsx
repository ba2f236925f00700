import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { SuggestedIdField, resolveId } from './suggested-id-field';

const wallets = [
  { id: 'w_ops', name: 'Operations hot wallet — TDHHmYT4BeuUDw4JQPMFbTayhNrSJtLxWo' },
  { id: 'w_payroll', name: 'Payroll — TXyz9Vb1sGQ3b5q3dvH1x2Zb8mJ6Qz1a2b' },
];

function Harness({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <SuggestedIdField
      label="Wallet"
      suggestions={wallets}
      value={value}
      onChange={(event) => {
        setValue(event.target.value);
      }}
    />
  );
}

describe('SuggestedIdField', () => {
  it('offers every known id under the name people know it by', () => {
    render(<Harness />);
    const field = screen.getByRole('combobox', { name: 'Wallet' });
    const list = document.getElementById(field.getAttribute('list') ?? '');
    const options = [...(list?.querySelectorAll('option') ?? [])];
    expect(options.map((o) => [o.value, o.label])).toEqual(wallets.map((w) => [w.id, w.name]));
    expect(field).toHaveAttribute('placeholder', 'Name or id');
  });

  it('names a known id beside the label, and keeps an unknown id as typed', async () => {
    const user = userEvent.setup();
    render(<Harness initial="w_payroll" />);
    const field = screen.getByRole('combobox', { name: 'Wallet' });
    expect(screen.getByTitle(wallets[1]!.name)).toBeVisible();
    expect(field).toHaveAccessibleDescription(wallets[1]!.name);

    await user.clear(field);
    await user.type(field, 'w_elsewhere');
    expect(field).toHaveValue('w_elsewhere');
    expect(screen.queryByTitle(wallets[1]!.name)).not.toBeInTheDocument();
    expect(field).not.toHaveAccessibleDescription();
  });
});

describe('resolveId', () => {
  it('keeps a known id, finds the one name that contains the text, else keeps the text', () => {
    expect(resolveId('w_ops', wallets)).toBe('w_ops');
    expect(resolveId('PAYROLL', wallets)).toBe('w_payroll');
    expect(resolveId('TDHHmYT4', wallets)).toBe('w_ops');
    // Both names contain " — T": two matches, so the text stays as typed (an id from elsewhere).
    expect(resolveId(' — T', wallets)).toBe(' — T');
    expect(resolveId('w_elsewhere', wallets)).toBe('w_elsewhere');
    expect(resolveId('', wallets)).toBe('');
  });
});
