import { explorerUrl, type Explorer, type ExplorerTarget } from '@settlement/protocol';
import { createContext, useContext } from 'react';

/** The block explorers the BFF is configured with (GET /bff/config); none until it answers. */
export const ExplorersContext = createContext<readonly Explorer[]>([]);

const NOUN: Record<ExplorerTarget, string> = { transaction: 'transaction', address: 'address' };

/**
 * "View on explorer" for a tx hash or an address, opened in a new tab; nothing at all for a
 * chain without a configured explorer (a dead or wrong-network link is worse than none).
 */
export function ExplorerLink({
  chain,
  target,
  value,
}: {
  chain: string;
  target: ExplorerTarget;
  value: string | null | undefined;
}) {
  const explorers = useContext(ExplorersContext);
  const href = value ? explorerUrl(explorers, chain, target, value) : null;
  if (!href) return null;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex items-center gap-0.5 text-xs font-medium whitespace-nowrap text-indigo-700 underline"
    >
      View on explorer<span className="sr-only"> ({NOUN[target]}, opens in a new tab)</span>
      <span aria-hidden="true">↗</span>
    </a>
  );
}
