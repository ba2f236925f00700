import type { Asset } from '@settlement/protocol';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AvailableBalance, NetworkFeeLine } from './withdrawal-amount-info';

const trx: Asset = { asset: 'TRX', name: 'Tron', decimals: 6, chains: [] };
const usdt: Asset = { asset: 'USDT', name: 'Tether', decimals: 6, chains: [] };

describe('AvailableBalance', () => {
  it('says the balance is loading until balances arrive', () => {
    render(<AvailableBalance isLoading available={0n} asset={trx} feeBalance={null} />);
    expect(screen.getByText('Loading balance…')).toBeInTheDocument();
  });

  it('shows the asset balance and, for a token, the native fee balance', () => {
    render(
      <AvailableBalance
        isLoading={false}
        available={12_500_000n}
        asset={usdt}
        feeBalance={{ atomic: 3_000_000n, asset: trx }}
      />,
    );
    expect(screen.getByTitle('12500000 atomic units')).toHaveTextContent('12.5USDT');
    expect(screen.getByText(/fee balance/)).toHaveTextContent('fee balance 3TRX');
  });
});

describe('NetworkFeeLine', () => {
  it('shows a flat native fee with the most that can be sent', () => {
    render(
      <NetworkFeeLine
        fee={{ feeAsset: 'TRX', feeDecimals: 6, feeAtomic: 1_100_000n, isFeeLimit: false }}
        chain="TRON"
        maxSendable={86_400_000n}
      />,
    );
    expect(screen.getByText(/Network fee/)).toHaveTextContent(
      'Network fee: 1.1TRX · Max sendable 86.4 TRX',
    );
  });

  it('shows a token fee limit as reserved "up to", without a max', () => {
    render(
      <NetworkFeeLine
        fee={{ feeAsset: 'TRX', feeDecimals: 6, feeAtomic: 30_000_000n, isFeeLimit: true }}
        chain="TRON"
        maxSendable={null}
      />,
    );
    const line = screen.getByText(/Network fee/);
    expect(line).toHaveTextContent('Network fee: up to 30TRX (the fee limit is reserved');
    expect(line).not.toHaveTextContent('Max sendable');
  });

  it('says the fee cannot be computed without a native asset', () => {
    render(<NetworkFeeLine fee={null} chain="TRON" maxSendable={null} />);
    expect(screen.getByText(/fee cannot be computed/)).toHaveTextContent(
      'The catalog lists no native asset for TRON',
    );
  });
});
