import type { Balance, Wallet } from '@settlement/protocol';
import { Link } from 'react-router';
import { Amount } from '../../../components/ui/amount';
import { StatusBadge } from '../../../components/ui/badge';
import { ChainBadge } from '../../../components/ui/chain-badge';
import { CopyableId } from '../../../components/ui/copy-button';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { WalletName } from '../../../components/ui/wallet-name';

/** Available balance per asset of one wallet; a dash while unknown. */
function Balances({
  balances,
  decimalsFor,
}: {
  balances: readonly Balance[] | null | undefined;
  decimalsFor: (asset: string) => number | null;
}) {
  if (!balances) return <span className="text-slate-600">—</span>;
  if (balances.length === 0) return <span className="text-slate-600">None yet</span>;
  return (
    <ul className="space-y-0.5">
      {balances.map((b) => (
        <li key={b.asset}>
          <Amount atomic={b.availableBalance} decimals={decimalsFor(b.asset)} asset={b.asset} />
        </li>
      ))}
    </ul>
  );
}

export function WalletsTable({
  wallets,
  label = 'Wallets',
  balancesFor,
  decimalsFor = () => null,
}: {
  wallets: Wallet[];
  label?: string;
  /** Balances per wallet when the page has them (the overview's); the column shows otherwise. */
  balancesFor?: (walletId: string) => readonly Balance[] | null | undefined;
  decimalsFor?: (asset: string) => number | null;
}) {
  return (
    <Table label={label}>
      <thead>
        <tr>
          <Th>Wallet</Th>
          {balancesFor ? <Th>Available</Th> : null}
          <Th>Account</Th>
          <Th>Chain</Th>
          <Th>Status</Th>
          <Th>Created</Th>
        </tr>
      </thead>
      <tbody>
        {wallets.map((wallet) => (
          <tr key={wallet.id} className="hover:bg-slate-50">
            <Td>
              <div className="flex min-w-44 flex-col gap-0.5">
                <WalletName walletId={wallet.id} wallet={wallet} />
                <CopyableId value={wallet.address} label="address" isShort />
              </div>
            </Td>
            {balancesFor ? (
              <Td className="whitespace-nowrap">
                <Balances balances={balancesFor(wallet.id)} decimalsFor={decimalsFor} />
              </Td>
            ) : null}
            <Td>
              <Link
                to={`/accounts/${encodeURIComponent(wallet.accountId)}`}
                className="text-indigo-700 hover:underline"
              >
                {wallet.accountName}
              </Link>
            </Td>
            <Td>
              <span className="flex flex-wrap items-center gap-1.5">
                <span className="font-mono text-xs">{wallet.chain}</span>
                <ChainBadge chain={wallet.chain} />
              </span>
            </Td>
            <Td>
              <StatusBadge status={wallet.status} />
            </Td>
            <Td>
              <Time value={wallet.createdAt} />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
