import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AmountInput } from './amount-input';

function Harness({ maxAtomic, decimals = 6 }: { maxAtomic: bigint | null; decimals?: number }) {
  const [value, setValue] = useState('');
  return (
    <AmountInput
      value={value}
      onChange={setValue}
      decimals={decimals}
      asset="TRX"
      maxAtomic={maxAtomic}
    />
  );
}

describe('AmountInput', () => {
  it('shows the exact atomic amount of what is typed', async () => {
    const user = userEvent.setup();
    render(<Harness maxAtomic={null} />);
    await user.type(screen.getByLabelText('Amount (TRX)'), '0.000001');
    expect(screen.getByText('= 1 atomic units (6 decimals)')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Amount (TRX)'));
    await user.type(screen.getByLabelText('Amount (TRX)'), '98765432109876.543210');
    expect(
      screen.getByText('= 98765432109876543210 atomic units (6 decimals)'),
    ).toBeInTheDocument();
  });

  it('refuses more decimals than the asset has, and signs', async () => {
    const user = userEvent.setup();
    render(<Harness maxAtomic={null} decimals={2} />);
    const input = screen.getByLabelText('Amount (TRX)');
    await user.type(input, '1.234');
    expect(screen.getByText('At most 2 decimal places for this asset.')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, '-5');
    expect(input).toHaveAttribute('aria-invalid', 'true');
  });

  it('Max fills the largest amount that leaves room for the fee', async () => {
    const user = userEvent.setup();
    render(<Harness maxAtomic={8_900_000n} />);
    await user.click(screen.getByRole('button', { name: /Use the maximum amount \(8\.9 TRX\)/ }));
    expect(screen.getByLabelText('Amount (TRX)')).toHaveValue('8.9');
  });

  it('Max is disabled when nothing can be sent', () => {
    render(<Harness maxAtomic={0n} />);
    expect(screen.getByRole('button', { name: /Use the maximum amount/ })).toBeDisabled();
  });
});
