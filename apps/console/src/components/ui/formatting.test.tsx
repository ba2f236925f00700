import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Amount, formatAmount } from './amount';
import { StatusBadge } from './badge';
import { Time } from './time';

describe('Amount', () => {
  it('formats atomic amounts exactly with the catalog decimals and grouping', () => {
    expect(formatAmount('1234567890123456789', 6)).toBe('1,234,567,890,123.456789');
    expect(formatAmount('1100000', 6)).toBe('1.1');
    expect(formatAmount('-2500000', 6)).toBe('-2.5');
    expect(formatAmount(5n, 0)).toBe('5');
  });

  it('says so when the catalog does not know the decimals', () => {
    expect(formatAmount('42', null)).toBe('42 (atomic)');
  });

  it('renders tabular figures with the asset and the atomic value on hover', () => {
    render(<Amount atomic="30000000" decimals={6} asset="TRX" />);
    const amount = screen.getByTitle('30000000 atomic units');
    expect(amount).toHaveTextContent('30TRX');
    expect(amount).toHaveClass('tabular-nums');
  });
});

describe('Time', () => {
  it('shows local time with the exact UTC value on hover', () => {
    render(<Time value="2026-03-04T05:06:07.000Z" />);
    const time = screen.getByTitle('2026-03-04 05:06:07.000 UTC');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('datetime', '2026-03-04T05:06:07.000Z');
  });

  it('renders a dash for a missing timestamp', () => {
    render(<Time value={null} />);
    expect(screen.getByText('—')).toBeInTheDocument();
  });
});

describe('StatusBadge', () => {
  it('carries the status as text, not colour alone', () => {
    render(<StatusBadge status="FAILED_ON_CHAIN" />);
    expect(screen.getByText('FAILED ON CHAIN')).toBeInTheDocument();
  });
});
