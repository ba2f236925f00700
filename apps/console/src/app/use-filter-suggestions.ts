import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { IdSuggestion } from '../components/ui/suggested-id-field';
import { walletDisplayName } from '../components/ui/wallet-name';
import { overviewQuery } from '../features/treasury/api/overview';

const NONE: readonly IdSuggestion[] = [];

/**
 * The accounts and wallets a filter can offer by name, from the overview every page already
 * reads (its wallets carry their account). An account without a wallet has no transaction or
 * wallet to filter for, so none is missing that a filter could find.
 */
export function useFilterSuggestions(): {
  accounts: readonly IdSuggestion[];
  wallets: readonly IdSuggestion[];
} {
  const overviewWallets = useQuery(overviewQuery()).data?.wallets;
  return useMemo(() => {
    if (!overviewWallets) return { accounts: NONE, wallets: NONE };
    const accounts = new Map<string, string>();
    for (const w of overviewWallets) accounts.set(w.accountId, w.accountName);
    return {
      accounts: [...accounts].map(([id, name]) => ({ id, name })),
      wallets: overviewWallets.map((w) => ({
        id: w.id,
        name: `${walletDisplayName(w)} — ${w.address}`,
      })),
    };
  }, [overviewWallets]);
}
