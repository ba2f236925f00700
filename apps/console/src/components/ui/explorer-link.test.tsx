import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ExplorerLink, ExplorersContext } from './explorer-link';

const explorers = [
  { chain: 'tron:mainnet' as const, baseUrl: 'https://tronscan.org' },
  { chain: 'tron:nile' as const, baseUrl: 'https://nile.tronscan.org' },
];

describe('ExplorerLink', () => {
  it('opens the tx hash on Nile Tronscan for a Nile transaction, in a new tab without opener', () => {
    render(
      <ExplorersContext value={explorers}>
        <ExplorerLink chain="tron:nile" target="transaction" value="ab12" />
      </ExplorersContext>,
    );
    const link = screen.getByRole('link', { name: /View on explorer \(transaction/ });
    expect(link).toHaveAttribute('href', 'https://nile.tronscan.org/#/transaction/ab12');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('links an address on Tronscan for mainnet', () => {
    render(
      <ExplorersContext value={explorers}>
        <ExplorerLink chain="tron:mainnet" target="address" value="TXyz" />
      </ExplorersContext>,
    );
    expect(screen.getByRole('link')).toHaveAttribute('href', 'https://tronscan.org/#/address/TXyz');
  });

  it('renders nothing for a chain without an explorer, or without a value', () => {
    const { container } = render(
      <ExplorersContext value={explorers.slice(0, 1)}>
        <ExplorerLink chain="tron:nile" target="address" value="TXyz" />
        <ExplorerLink chain="tron:mainnet" target="transaction" value={null} />
      </ExplorersContext>,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
