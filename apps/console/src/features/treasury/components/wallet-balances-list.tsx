import type { OverviewWallet } from '@settlement/protocol';
import { Amount } from '../../../components/ui/amount';
import { StatusBadge } from '../../../components/ui/badge';
import { ChainBadge } from '../../../components/ui/chain-badge';
import { WalletName } from '../../../components/ui/wallet-name';

/**
 * Wallets with their available balance per asset, as stacked rows (they read on a phone as on
 * a desktop, and never widen the page). Reserved amounts show when there are any.
 */
export function WalletBalancesList({
  wallets,
  decimalsFor,
  label = 'Wallets with balances',
}: {
  wallets: readonly OverviewWallet[];
  decimalsFor: (asset: string) => number | null;
  label?: string;
}) {
  return (
    <ul aria-label={label} className="divide-y divide-slate-100">
      {wallets.map((wallet) => (
        <li
          key={wallet.id}
          className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-start sm:justify-between"
        >
          <div className="flex min-w-0 flex-wrap items-start gap-2">
            <WalletName walletId={wallet.id} wallet={wallet} />
            <ChainBadge chain={wallet.chain} />
            {wallet.status === 'ACTIVE' ? null : <StatusBadge status={wallet.status} />}
          </div>
          <div className="text-sm sm:text-right">
            {wallet.balances === null ? (
              <span className="text-slate-600">Balances unavailable</span>
            ) : wallet.balances.length === 0 ? (
              <span className="text-slate-600">No balance yet</span>
            ) : (
              <ul aria-label="Balances" className="space-y-0.5">
                {wallet.balances.map((b) => (
                  <li key={b.asset}>
                    <Amount
                      atomic={b.availableBalance}
                      decimals={decimalsFor(b.asset)}
                      asset={b.asset}
                    />
                    <span className="ml-1 text-xs text-slate-600">available</span>
                    {b.reservedBalance !== '0' ? (
                      <span className="block text-xs text-slate-600">
                        <Amount atomic={b.reservedBalance} decimals={decimalsFor(b.asset)} />{' '}
                        reserved
                      </span>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
