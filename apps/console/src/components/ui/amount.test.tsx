import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Amount, fractionPadding } from './amount';

describe('fractionPadding', () => {
  it('pads every amount of a column to the same number of fractional places', () => {
    expect(fractionPadding('250.5', 6)).toBe(5);
    expect(fractionPadding('0.000001', 6)).toBe(0);
    expect(fractionPadding('1,000', 6)).toBe(7); // six places and the missing dot
    expect(fractionPadding('-13.45', 6)).toBe(4);
    expect(fractionPadding('7', 0)).toBe(0);
  });
});

describe('Amount aligned on the decimal point', () => {
  it('pads with blank width, never digits, so the text stays the exact amount', () => {
    render(
      <>
        <Amount atomic="250500000" decimals={6} asset="USDT" alignDecimals={6} />
        <Amount atomic="1000000000" decimals={6} asset="TRX" alignDecimals={6} />
      </>,
    );
    const usdt = screen.getByTitle('250500000 atomic units');
    const trx = screen.getByTitle('1000000000 atomic units');
    expect(usdt).toHaveTextContent('250.5USDT');
    expect(trx).toHaveTextContent('1,000TRX');
    expect(screen.getByText('250.5')).toHaveStyle({ paddingRight: '5ch' });
    expect(screen.getByText('1,000')).toHaveStyle({ paddingRight: '7ch' });
    // Asset codes of different lengths sit in one fixed box, so the figures end in one place.
    expect(screen.getByText('USDT')).toHaveClass('inline-block', 'w-10');
  });

  it('leaves a lone amount as it was', () => {
    render(<Amount atomic="250500000" decimals={6} asset="USDT" />);
    expect(screen.getByText('250.5')).not.toHaveAttribute('style');
  });
});
