import type { Asset } from '@settlement/protocol';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AvailableBalance, NetworkFeeLine, OpenRequestsWarning } from './withdrawal-amount-info';

const trx: Asset = { asset: 'TRX', name: 'Tron', decimals: 6, chains: [] };
const usdt: Asset = { asset: 'USDT', name: 'Tether', decimals: 6, chains: [] };

/** A USDT balance with what open requests from the wallet take of it. */
function renderWithOpen(
  available: bigint,
  committed: { amountAtomic: bigint; count: number; isAtLeast: boolean },
) {
  render(
    <AvailableBalance
      isLoading={false}
      available={available}
      asset={usdt}
      feeBalance={null}
      committed={committed}
    />,
  );
}

describe('AvailableBalance', () => {
  it('says the balance is loading until balances arrive', () => {
    render(
      <AvailableBalance isLoading available={0n} asset={trx} feeBalance={null} committed={null} />,
    );
    expect(screen.getByText('Loading balance…')).toBeInTheDocument();
  });

  it('shows the asset balance and, for a token, the native fee balance', () => {
    render(
      <AvailableBalance
        isLoading={false}
        available={12_500_000n}
        asset={usdt}
        feeBalance={{ atomic: 3_000_000n, asset: trx }}
        committed={null}
      />,
    );
    expect(screen.getByTitle('12500000 atomic units')).toHaveTextContent('12.5USDT');
    expect(screen.getByText(/fee balance/)).toHaveTextContent('fee balance 3TRX');
  });

  it('under the balance, counts the open requests from this wallet with their amount', () => {
    renderWithOpen(1_000_000_000n, { amountAtomic: 900_000_000n, count: 2, isAtLeast: false });
    expect(screen.getByText(/open requests from this wallet/)).toHaveTextContent(
      '2 open requests from this wallet: 900USDT',
    );
    expect(screen.getByText(/not yet sent: still counted in Available/)).toBeInTheDocument();
  });

  it('names one open request in the singular', () => {
    renderWithOpen(1_000_000_000n, { amountAtomic: 5_000_000n, count: 1, isAtLeast: false });
    expect(screen.getByText(/open request from this wallet/)).toHaveTextContent(
      '1 open request from this wallet: 5USDT',
    );
  });

  it('with a full request list, says the count and amount are at least what is shown', () => {
    renderWithOpen(1_000_000_000n, { amountAtomic: 900_000_000n, count: 2, isAtLeast: true });
    expect(screen.getByText(/open requests from this wallet/)).toHaveTextContent(
      '2 or more open requests from this wallet: at least 900USDT',
    );
  });

  it('shows an open-request amount above 2^53 exactly', () => {
    renderWithOpen(2n ** 60n, { amountAtomic: 2n ** 53n + 1n, count: 1, isAtLeast: false });
    expect(screen.getByTitle('9007199254740993 atomic units')).toHaveTextContent(
      '9,007,199,254.740993USDT',
    );
  });

  it('adds a line only once open requests from this wallet are known to exist', () => {
    const props = { isLoading: false, available: 1_000_000_000n, asset: usdt, feeBalance: null };
    const { rerender } = render(<AvailableBalance {...props} committed={null} />);
    expect(screen.queryByText(/open request/)).not.toBeInTheDocument();
    rerender(
      <AvailableBalance {...props} committed={{ amountAtomic: 0n, count: 0, isAtLeast: false }} />,
    );
    expect(screen.queryByText(/open request/)).not.toBeInTheDocument();
    rerender(
      <AvailableBalance {...props} committed={{ amountAtomic: 1n, count: 1, isAtLeast: false }} />,
    );
    expect(screen.getByText(/open request from this wallet/)).toHaveTextContent(
      '1 open request from this wallet: 0.000001USDT',
    );
  });
});

describe('OpenRequestsWarning', () => {
  it('for a token, says the open requests and this withdrawal together exceed the balance', () => {
    render(
      <OpenRequestsWarning
        committed={{ amountAtomic: 900_000_000n, count: 2, isAtLeast: false }}
        asset={usdt}
        nativeFee={null}
      />,
    );
    expect(screen.getByRole('note')).toHaveTextContent(
      'With the 2 open requests from this wallet (900USDT), this would exceed the available balance: whichever is sent last would fail.',
    );
  });

  it('for a native transfer, names the fee paid from the same balance', () => {
    render(
      <OpenRequestsWarning
        committed={{ amountAtomic: 8_900_000n, count: 1, isAtLeast: true }}
        asset={trx}
        nativeFee={{ feeAsset: 'TRX', feeDecimals: 6, feeAtomic: 1_100_000n, isFeeLimit: false }}
      />,
    );
    expect(screen.getByRole('note')).toHaveTextContent(
      'With the 1 or more open requests from this wallet (at least 8.9TRX and their fees), this and its 1.1TRX fee would exceed the available balance',
    );
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
