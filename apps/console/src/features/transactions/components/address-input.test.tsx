import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AddressInput } from './address-input';
import type { InternalTarget } from './address-input';

const VALID = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

function Harness({ internalTarget = null }: { internalTarget?: InternalTarget | null }) {
  const [value, setValue] = useState('');
  return <AddressInput value={value} onChange={setValue} internalTarget={internalTarget} />;
}

describe('AddressInput', () => {
  it('validates as the operator types: prefix, length, alphabet, checksum', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByLabelText('Destination address');

    await user.type(input, 'X');
    expect(screen.getByText('TRON addresses start with T.')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');

    await user.clear(input);
    await user.type(input, 'TR7NHq');
    expect(screen.getByText('TRON addresses have 34 characters (this has 6).')).toBeInTheDocument();

    await user.clear(input);
    await user.type(input, `${VALID.slice(0, 33)}0`);
    expect(screen.getByText('Contains a character base58 does not use.')).toBeInTheDocument();

    await user.clear(input);
    await user.type(input, `${VALID.slice(0, 33)}u`);
    expect(screen.getByText('The checksum does not match: check for a typo.')).toBeInTheDocument();

    await user.clear(input);
    await user.type(input, VALID);
    expect(screen.getByText('Valid TRON address.')).toBeInTheDocument();
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('names the internal transfer when the address is one of our wallets', async () => {
    const user = userEvent.setup();
    render(
      <Harness
        internalTarget={{ walletId: 'w_2', accountId: 'a_2', accountName: 'Merchant Bob' }}
      />,
    );
    await user.type(screen.getByLabelText('Destination address'), VALID);
    expect(screen.getByRole('status')).toHaveTextContent(
      'Internal transfer to account Merchant Bob',
    );
  });
});
