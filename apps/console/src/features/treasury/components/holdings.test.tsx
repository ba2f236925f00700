import type { AssetTotal } from '@settlement/protocol';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Holdings } from './holdings';

const usdt: AssetTotal = {
  asset: 'USDT',
  chain: 'tron:nile',
  postedAtomic: '1000000000',
  reservedAtomic: '0',
  availableAtomic: '1000000000',
  walletCount: 2,
};
const trx: AssetTotal = { ...usdt, asset: 'TRX', availableAtomic: '50000000' };

type Commitment = { chain: string; asset: string; amountAtomic: bigint; count: number };

function renderHoldings(
  totals: AssetTotal[],
  openRequests: { perAsset: Commitment[]; isAtLeast: boolean } | 'unreadable' | null,
) {
  return render(<Holdings totals={totals} decimalsFor={() => 6} openRequests={openRequests} />);
}

/** The card of one asset on Nile, by its heading text. */
function card(asset: string) {
  const item = screen
    .getAllByRole('listitem')
    .find((li) => li.firstElementChild?.textContent.startsWith(`${asset} on `));
  if (!item) throw new Error(`no card for ${asset}`);
  return within(item);
}

/** The value beside a term of a card's list. */
function valueOf(asset: string, term: RegExp) {
  return card(asset).getByText(term).nextElementSibling?.textContent;
}

describe('Holdings', () => {
  it('under Available, shows what open requests take and what is not yet promised', () => {
    renderHoldings([usdt], {
      perAsset: [{ chain: 'tron:nile', asset: 'USDT', amountAtomic: 900_000_000n, count: 2 }],
      isAtLeast: false,
    });
    expect(valueOf('USDT', /^In open requests \(2\)$/)).toBe('900USDT');
    expect(valueOf('USDT', /^Not yet promised$/)).toBe('100USDT');
    expect(screen.getByRole('note')).toHaveTextContent(
      'The settlement service reserves an amount only once its request is sent, so Available still includes them.',
    );
  });

  it('when open requests exceed Available, says by how much instead of what is left', () => {
    renderHoldings([trx], {
      perAsset: [{ chain: 'tron:nile', asset: 'TRX', amountAtomic: 80_000_000n, count: 3 }],
      isAtLeast: false,
    });
    expect(valueOf('TRX', /^Open requests exceed available by$/)).toBe('30TRX');
    expect(card('TRX').queryByText('Not yet promised')).not.toBeInTheDocument();
  });

  it('with a full request list, says the committed sum is at least and what is left at most', () => {
    renderHoldings([usdt, trx], {
      perAsset: [
        { chain: 'tron:nile', asset: 'TRX', amountAtomic: 80_000_000n, count: 3 },
        { chain: 'tron:nile', asset: 'USDT', amountAtomic: 900_000_000n, count: 2 },
      ],
      isAtLeast: true,
    });
    expect(valueOf('USDT', /^In open requests \(2 or more\)$/)).toBe('at least 900USDT');
    expect(valueOf('USDT', /^Not yet promised$/)).toBe('at most 100USDT');
    expect(valueOf('TRX', /^Open requests exceed available by$/)).toBe('at least 30TRX');
  });

  it('counts only the requests of the same asset on the same chain', () => {
    renderHoldings([usdt, trx], {
      perAsset: [
        { chain: 'tron:mainnet', asset: 'TRX', amountAtomic: 1n, count: 1 },
        { chain: 'tron:nile', asset: 'USDT', amountAtomic: 1_000_000n, count: 1 },
      ],
      isAtLeast: false,
    });
    expect(valueOf('USDT', /^In open requests \(1\)$/)).toBe('1USDT');
    expect(card('TRX').queryByText(/In open requests/)).not.toBeInTheDocument();
  });

  it('subtracts amounts above 2^53 exactly', () => {
    // 2^53 + 1 is no float: as Numbers, what is left would be 0, not 1 atomic unit.
    renderHoldings([{ ...usdt, availableAtomic: (2n ** 53n + 1n).toString() }], {
      perAsset: [{ chain: 'tron:nile', asset: 'USDT', amountAtomic: 2n ** 53n, count: 1 }],
      isAtLeast: false,
    });
    expect(valueOf('USDT', /^In open requests \(1\)$/)).toBe('9,007,199,254.740992USDT');
    expect(valueOf('USDT', /^Not yet promised$/)).toBe('0.000001USDT');
  });

  it('adds lines and the note only once open requests of the asset are known', () => {
    const { rerender } = renderHoldings([usdt], null);
    expect(screen.queryByText(/In open requests|Not yet promised/)).not.toBeInTheDocument();
    rerender(
      <Holdings
        totals={[usdt]}
        decimalsFor={() => 6}
        openRequests={{ perAsset: [], isAtLeast: false }}
      />,
    );
    expect(screen.queryByText(/In open requests|Not yet promised/)).not.toBeInTheDocument();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    rerender(
      <Holdings
        totals={[usdt]}
        decimalsFor={() => 6}
        openRequests={{
          perAsset: [{ chain: 'tron:nile', asset: 'USDT', amountAtomic: 1n, count: 1 }],
          isAtLeast: false,
        }}
      />,
    );
    expect(valueOf('USDT', /^In open requests \(1\)$/)).toBe('0.000001USDT');
    expect(screen.getByRole('note')).toBeInTheDocument();
  });

  it('while open requests are unknown, makes no claim: no lines, no warning', () => {
    renderHoldings([usdt, trx], null);
    expect(screen.queryByText(/In open requests|Not yet promised/)).not.toBeInTheDocument();
    expect(screen.queryByText(/could not be read/)).not.toBeInTheDocument();
  });

  it('when the open requests could not be read, says once that Available may include what they promise, and nothing is called not yet promised', () => {
    renderHoldings([usdt, trx], 'unreadable');
    expect(screen.getByRole('note')).toHaveTextContent(
      'Open withdrawal requests could not be read: Available may include money they already promise.',
    );
    expect(screen.queryByText(/In open requests|Not yet promised/)).not.toBeInTheDocument();
    expect(screen.queryByText(/reserves an amount only once/)).not.toBeInTheDocument();
  });

  it('once the open requests are read, says nothing of a failure', () => {
    renderHoldings([usdt], {
      perAsset: [{ chain: 'tron:nile', asset: 'USDT', amountAtomic: 1n, count: 1 }],
      isAtLeast: false,
    });
    expect(valueOf('USDT', /^Not yet promised$/)).toBe('999.999999USDT');
    expect(screen.queryByText(/could not be read/)).not.toBeInTheDocument();
  });
});
