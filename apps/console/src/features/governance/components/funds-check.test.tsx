import { WITHDRAWAL_REQUEST_STATUSES, type WithdrawalRequest } from '@settlement/protocol';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { withdrawalRequestFixture } from '../../../test/governance-fixtures';
import { FundsCheck, type Funds } from './funds-check';

/** 8.9 TRX, awaiting approval. */
const request = withdrawalRequestFixture();

function funds(overrides: Partial<Funds> = {}): Funds {
  return {
    availableAtomic: 100_000_000n,
    committed: { amountAtomic: 30_000_000n, count: 2 },
    isAtLeast: false,
    isError: false,
    isOthersError: false,
    feeAtomic: 0n,
    ...overrides,
  };
}

function renderCheck(value: Funds, shown: WithdrawalRequest = request, decimals = 6) {
  return render(<FundsCheck request={shown} decimals={decimals} funds={value} />);
}

/** The value beside a label of the panel's list. */
function row(label: string): HTMLElement {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling as HTMLElement;
}

describe('FundsCheck', () => {
  it('says a request is covered, with what is left after it and the other open requests', () => {
    renderCheck(funds());
    expect(screen.getByRole('heading', { name: 'Funds' })).toBeInTheDocument();
    expect(row('Available now')).toHaveTextContent('100TRX');
    expect(row('Other open requests')).toHaveTextContent('30TRX in 2 requests');
    expect(row('This request')).toHaveTextContent('8.9TRX');
    expect(screen.getByRole('status')).toHaveTextContent(
      'Covered: 61.1TRX left after this and the other open requests.',
    );
    expect(screen.getByText(/reserves an amount only once a request is sent/)).toHaveTextContent(
      'A token withdrawal also needs TRX for its network fee, not counted here.',
    );
  });

  it("counts a native transfer's flat fee, for this request and each other open request", () => {
    // 8.9 + 1.1 and 30 + 2 x 1.1 of 42.2 available: exactly covered, nothing left.
    renderCheck(funds({ availableAtomic: 42_200_000n, feeAtomic: 1_100_000n }));
    expect(row('This request')).toHaveTextContent('8.9TRX and its 1.1TRX fee');
    expect(row('Other open requests')).toHaveTextContent('30TRX in 2 requests, and their fees');
    expect(screen.getByRole('status')).toHaveTextContent('Covered: 0TRX left');
    expect(screen.getByText(/reserves an amount only once/)).toHaveTextContent(
      'The flat network fee of each TRX transfer is counted.',
    );
  });

  it('finds a request short by its own fee alone, and by one atomic unit beside the others', () => {
    renderCheck(funds({ availableAtomic: 9_999_999n, feeAtomic: 1_100_000n }));
    expect(screen.getByRole('status')).toHaveTextContent(
      'Not covered: short by 0.000001TRX. The wallet lacks the funds for this request even without',
    );
  });

  it('says the other open requests could not be read, never that the request is covered', () => {
    renderCheck(funds({ committed: null, isOthersError: true }));
    expect(row('Other open requests')).toHaveTextContent('Could not be read');
    const verdict = screen.getByRole('status');
    expect(verdict).toHaveTextContent(
      "Not checked: the wallet's other open requests could not be read",
    );
    expect(verdict).not.toHaveTextContent('Covered');
  });

  it('never claims covered when the other open requests failed to refresh, even with an old list at hand', () => {
    renderCheck(funds({ committed: { amountAtomic: 0n, count: 0 }, isOthersError: true }));
    const verdict = screen.getByRole('status');
    expect(verdict).toHaveTextContent(
      "Not checked: the wallet's other open requests could not be read",
    );
    expect(verdict).not.toHaveTextContent(/\bcovered:/i);
  });

  it('warns, in words, that a request the other open requests leave short of funds may fail', () => {
    renderCheck(
      funds({ availableAtomic: 10_000_000n, committed: { amountAtomic: 5_000_000n, count: 1 } }),
    );
    expect(row('Other open requests')).toHaveTextContent('5TRX in 1 request');
    const verdict = screen.getByRole('status');
    expect(verdict).toHaveTextContent(
      'Not covered: short by 3.9TRX. If approved, it may fail when sent.',
    );
    expect(verdict).not.toHaveTextContent('Covered:');
    expect(verdict).toHaveClass('bg-amber-50');
  });

  it('says the wallet lacks the funds even without the other open requests when the request alone exceeds what is available', () => {
    renderCheck(funds({ availableAtomic: 5_000_000n, committed: { amountAtomic: 0n, count: 0 } }));
    expect(row('Other open requests')).toHaveTextContent('None');
    const verdict = screen.getByRole('status');
    expect(verdict).toHaveTextContent(
      'Not covered: short by 3.9TRX. The wallet lacks the funds for this request even without the other open requests. If approved, it may fail when sent.',
    );
    expect(verdict).toHaveClass('bg-red-50');
  });

  it('judges a request that alone exceeds the balance before the other open requests are read', () => {
    renderCheck(funds({ availableAtomic: 5_000_000n, committed: null }));
    expect(row('Other open requests')).toHaveTextContent('Not read yet');
    expect(screen.getByRole('status')).toHaveTextContent('Not covered: short by 3.9TRX.');
  });

  it('claims nothing while the other open requests are unread and the request alone fits', () => {
    renderCheck(funds({ committed: null }));
    const verdict = screen.getByRole('status');
    expect(verdict).toHaveTextContent(
      "Not checked yet: the wallet's other open requests are not read.",
    );
    expect(verdict).not.toHaveTextContent(/covered/i);
  });

  it('does not tell an approved request "if approved"', () => {
    renderCheck(funds({ availableAtomic: 10_000_000n }), { ...request, status: 'APPROVED' });
    const verdict = screen.getByRole('status');
    expect(verdict).toHaveTextContent('Not covered: short by 28.9TRX. It may fail when sent.');
    expect(verdict).not.toHaveTextContent('If approved');
  });

  it('says "at least" of the other open requests and the shortfall, and "at most" of what is left, when a list was full', () => {
    const covered = renderCheck(funds({ isAtLeast: true }));
    expect(row('Other open requests')).toHaveTextContent('at least 30TRX in 2 or more requests');
    expect(screen.getByRole('status')).toHaveTextContent(
      'Covered, as far as listed: at most 61.1TRX left after this and the other open requests; more may be open than the lists show.',
    );
    covered.unmount();
    const short = renderCheck(funds({ isAtLeast: true, availableAtomic: 10_000_000n }));
    expect(screen.getByRole('status')).toHaveTextContent('Not covered: short by at least 28.9TRX.');
    short.unmount();
    renderCheck(funds({ isAtLeast: true, committed: { amountAtomic: 0n, count: 0 } }));
    expect(row('Other open requests')).toHaveTextContent(
      'None listed; more may be open than the lists show',
    );
  });

  it('never claims covered when the balance could not be read, even with an old balance at hand', () => {
    renderCheck(funds({ isError: true }));
    expect(row('Available now')).toHaveTextContent('Could not be read');
    const verdict = screen.getByRole('status');
    expect(verdict).toHaveTextContent(
      "Not checked: the wallet's balance could not be read, so whether it covers this request is unknown.",
    );
    expect(verdict).not.toHaveTextContent(/\bcovered:/i);
  });

  it('judges nothing while its fee is unknown, though the balance is read', () => {
    renderCheck(funds({ feeAtomic: null }));
    expect(row('Available now')).toHaveTextContent('100TRX');
    expect(screen.getByRole('status')).toHaveTextContent("Checking the wallet's balance…");
  });

  it('says it is checking while the balance is unread', () => {
    renderCheck(funds({ availableAtomic: null }));
    expect(screen.getByRole('status')).toHaveTextContent("Checking the wallet's balance…");
    expect(row('Available now')).not.toHaveTextContent('TRX');
    expect(screen.getByRole('status')).not.toHaveTextContent(/covered/i);
  });

  it('shows the check only for a request awaiting approval or approved and not yet sent', () => {
    const shown = WITHDRAWAL_REQUEST_STATUSES.filter((status) => {
      const { container, unmount } = renderCheck(funds(), { ...request, status });
      const hasPanel = within(container).queryByRole('heading', { name: 'Funds' }) !== null;
      unmount();
      return hasPanel;
    });
    expect(shown).toEqual(['AWAITING_APPROVAL', 'APPROVED']);
  });

  it('computes amounts above 2^53 exactly', () => {
    renderCheck(
      funds({
        availableAtomic: 90_071_992_547_409_930n,
        committed: { amountAtomic: 1n, count: 1 },
      }),
      { ...request, asset: 'USDT', amountAtomic: '9007199254740993' },
    );
    expect(row('This request')).toHaveTextContent('9,007,199,254.740993USDT');
    expect(screen.getByRole('status')).toHaveTextContent(
      'Covered: 81,064,793,292.668936USDT left after this and the other open requests.',
    );
  });
});
