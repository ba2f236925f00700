import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FundsSummary } from './funds-summary';
import {
  confirmedTrx,
  decimalsFor,
  failedBeforeBroadcast,
  pendingTrx,
  revertedUsdt,
  valueOf,
} from '../transaction-fixtures';

describe('FundsSummary', () => {
  it('FAILED before broadcast: not debited, no fee, amount and fee reserve returned', () => {
    render(<FundsSummary transaction={failedBeforeBroadcast} decimalsFor={decimalsFor} />);
    expect(screen.getByText(/Not debited: the amount never left the wallet/)).toHaveTextContent(
      'No network fee was spent: the transaction was never broadcast.',
    );
    expect(valueOf('Amount')).toHaveTextContent('20TRXnot debited');
    expect(valueOf('Network fee spent')).toHaveTextContent('None');
    expect(valueOf('Returned to available')).toHaveTextContent('21.1TRX');
  });

  it('FAILED_ON_CHAIN: the amount and the unused fee reserve returned, the burned fee spent', () => {
    render(<FundsSummary transaction={revertedUsdt} decimalsFor={decimalsFor} />);
    expect(valueOf('Amount')).toHaveTextContent('250.5USDTnot debited');
    expect(valueOf('Network fee spent')).toHaveTextContent('13.45TRX');
    const returned = within(valueOf('Returned to available')).getAllByRole('listitem');
    expect(returned.map((item) => item.textContent)).toEqual(['250.5USDT', '16.55TRX']);
  });

  it('CONFIRMED: debited, with its fee, nothing returned', () => {
    render(<FundsSummary transaction={confirmedTrx} decimalsFor={decimalsFor} />);
    expect(valueOf('Amount')).toHaveTextContent('20TRXdebited');
    expect(valueOf('Network fee spent')).toHaveTextContent('1.1TRX');
    expect(valueOf('Returned to available')).toHaveTextContent('Nothing');
  });

  it('PENDING: reserved, not debited yet, still on hold', () => {
    render(<FundsSummary transaction={pendingTrx} decimalsFor={decimalsFor} />);
    expect(valueOf('Amount')).toHaveTextContent('reserved, not debited yet');
    expect(valueOf('Still reserved')).toHaveTextContent('21.1TRX');
  });
});
