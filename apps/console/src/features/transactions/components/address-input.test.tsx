import type { Wallet } from '@settlement/protocol';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AddressInput } from './address-input';
import type { Destination } from '../model/destination';

const VALID = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const NOW = '2026-01-01T00:00:00Z';
const bob: Wallet = {
  id: 'w_2',
  chain: 'tron:nile',
  accountId: 'a_2',
  accountName: 'Merchant Bob',
  address: VALID,
  status: 'ACTIVE',
  createdAt: NOW,
  updatedAt: NOW,
};

function Harness({ destination = { kind: 'none' } }: { destination?: Destination }) {
  const [value, setValue] = useState('');
  return (
    <AddressInput
      value={value}
      onChange={setValue}
      destination={destination}
      sourceChain="tron:nile"
    />
  );
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
    render(<Harness destination={{ kind: 'internal', wallet: bob }} />);
    await user.type(screen.getByLabelText('Destination address'), VALID);
    expect(screen.getByRole('status')).toHaveTextContent(
      'Internal transfer to account Merchant Bob',
    );
  });

  it('names an 0x… address as not a TRON address', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByLabelText('Destination address');
    await user.type(input, '0x52908400098527886E0F7030069857D2E4169EE7');
    expect(screen.getByText(/0x… \(Ethereum-style\) address, not a TRON address/)).toBeVisible();
    expect(input).toHaveAttribute('aria-invalid', 'true');
  });

  it('explains in words why a wallet of ours on another chain is the wrong network', async () => {
    const user = userEvent.setup();
    render(
      <Harness destination={{ kind: 'other-chain', wallet: { ...bob, chain: 'tron:mainnet' } }} />,
    );
    await user.type(screen.getByLabelText('Destination address'), VALID);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Wrong network');
    expect(alert).toHaveTextContent('the tron:mainnet wallet of account Merchant Bob');
    expect(alert).toHaveTextContent('The funds would land at this address on tron:nile');
    expect(alert).toHaveTextContent('the tron:mainnet wallet would never see them');
    expect(screen.queryByText(/Internal transfer/)).not.toBeInTheDocument();
  });
});
