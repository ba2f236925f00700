import { chainReadiness } from '@settlement/protocol';
import type { MpcStatus } from '@settlement/protocol';
import { isTestnet } from '../../components/ui/chain-badge';

/**
 * The chain Setup and Create wallet propose first; one rule for both. A chain that is ready
 * (per the MPC status) comes first; among equals a test network comes before a main network,
 * since an operator's first steps are safest where assets have no value. Null without chains.
 */
export function defaultChain(
  status: MpcStatus | undefined,
  chains: readonly string[],
): string | null {
  const rank = (chain: string) =>
    (status && chainReadiness(status, chain).isReady ? 0 : 2) + (isTestnet(chain) ? 0 : 1);
  // Array sort is stable: chains of equal rank keep the order they were given in.
  return [...chains].sort((a, b) => rank(a) - rank(b))[0] ?? null;
}
