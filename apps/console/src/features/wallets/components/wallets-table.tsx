import type { Balance, Wallet } from '@settlement/protocol';
import { Link } from 'react-router';
import { Amount } from '../../../components/ui/amount';
import { StatusBadge } from '../../../components/ui/badge';
import { Card, CardFields, CardList } from '../../../components/ui/card-list';
import { ChainBadge } from '../../../components/ui/chain-badge';
import { CopyableId } from '../../../components/ui/copy-button';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { WalletName } from '../../../components/ui/wallet-name';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';

type DecimalsFor = (asset: string) => number | null;

/** Available balance per asset of one wallet; a dash while unknown. */
function Balances({
  balances,
  decimalsFor,
}: {
  balances: readonly Balance[] | null | undefined;
  decimalsFor: DecimalsFor;
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

/** The wallet's name (a link to it) above its address, once, to copy. */
function WalletIdentity({ wallet }: { wallet: Wallet }) {
  return (
    <>
      <WalletName walletId={wallet.id} wallet={wallet} hasAddress={false} />
      <CopyableId value={wallet.address} label="address" isShort />
    </>
  );
}

function AccountLink({ wallet }: { wallet: Wallet }) {
  return (
    <Link
      to={`/accounts/${encodeURIComponent(wallet.accountId)}`}
      className="text-indigo-700 hover:underline"
    >
      {wallet.accountName}
    </Link>
  );
}

function WalletChain({ wallet }: { wallet: Wallet }) {
  return (
    <span className="flex flex-wrap items-center gap-1.5">
      <span className="font-mono text-xs">{wallet.chain}</span>
      <ChainBadge chain={wallet.chain} />
    </span>
  );
}

type Props = {
  wallets: Wallet[];
  label?: string;
  /** Balances per wallet when the page has them (the overview's); the column shows otherwise. */
  balancesFor?: (walletId: string) => readonly Balance[] | null | undefined;
  decimalsFor?: DecimalsFor;
};

/** On a phone, where the table put the status and creation date beyond the right edge. */
function WalletCards({
  wallets,
  label,
  balancesFor,
  decimalsFor,
}: {
  wallets: Wallet[];
  label: string;
  balancesFor: Props['balancesFor'];
  decimalsFor: DecimalsFor;
}) {
  return (
    <CardList label={label}>
      {wallets.map((wallet) => (
        <Card key={wallet.id}>
          <div className="flex flex-col gap-0.5">
            <WalletIdentity wallet={wallet} />
          </div>
          <CardFields
            fields={[
              [
                'Available',
                balancesFor ? (
                  <Balances balances={balancesFor(wallet.id)} decimalsFor={decimalsFor} />
                ) : null,
              ],
              ['Account', <AccountLink wallet={wallet} />],
              ['Chain', <WalletChain wallet={wallet} />],
              ['Status', <StatusBadge status={wallet.status} />],
              ['Created', <Time value={wallet.createdAt} />],
            ]}
          />
        </Card>
      ))}
    </CardList>
  );
}

export function WalletsTable({
  wallets,
  label = 'Wallets',
  balancesFor,
  decimalsFor = () => null,
}: Props) {
  const isPhone = useMediaQuery(PHONE_QUERY);
  if (isPhone)
    return (
      <WalletCards
        wallets={wallets}
        label={label}
        balancesFor={balancesFor}
        decimalsFor={decimalsFor}
      />
    );
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
                <WalletIdentity wallet={wallet} />
              </div>
            </Td>
            {balancesFor ? (
              <Td className="whitespace-nowrap">
                <Balances balances={balancesFor(wallet.id)} decimalsFor={decimalsFor} />
              </Td>
            ) : null}
            <Td>
              <AccountLink wallet={wallet} />
            </Td>
            <Td>
              <WalletChain wallet={wallet} />
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
