import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, type ReactNode } from 'react';
import { ExplorersContext } from '../../components/ui/explorer-link';
import { WalletDirectoryContext, type WalletIdentity } from '../../components/ui/wallet-name';
import { consoleConfigQuery } from '../../features/treasury/api/console-config';
import { overviewQuery } from '../../features/treasury/api/overview';

const NO_EXPLORERS = [] as const;

/**
 * What every page needs to name wallets (label, account, chain, address) and to link to block
 * explorers, from the overview and the console config; pages read it through WalletName and
 * ExplorerLink.
 */
export function DirectoryProvider({ children }: { children: ReactNode }) {
  const overview = useQuery(overviewQuery());
  const config = useQuery(consoleConfigQuery());
  // Keyed on the wallets alone: a refetch that changes only the overview's `generatedAt` keeps
  // the same wallets array (structural sharing), so no wallet name on the page re-renders.
  const wallets = overview.data?.wallets;
  const byId = useMemo(
    () => new Map<string, WalletIdentity>((wallets ?? []).map((w) => [w.id, w])),
    [wallets],
  );
  const lookup = useCallback((walletId: string) => byId.get(walletId), [byId]);
  return (
    <ExplorersContext.Provider value={config.data?.explorers ?? NO_EXPLORERS}>
      <WalletDirectoryContext.Provider value={lookup}>{children}</WalletDirectoryContext.Provider>
    </ExplorersContext.Provider>
  );
}
