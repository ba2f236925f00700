import type { Wallet } from '@settlement/protocol';
import { Link } from 'react-router';
import { StatusBadge } from '../../../components/ui/badge';
import { ChainBadge } from '../../../components/ui/chain-badge';
import { CopyableId } from '../../../components/ui/copy-button';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';

export function WalletsTable({
  wallets,
  label = 'Wallets',
}: {
  wallets: Wallet[];
  label?: string;
}) {
  return (
    <Table label={label}>
      <thead>
        <tr>
          <Th>Address</Th>
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
              <div className="flex flex-col gap-0.5">
                <Link
                  to={`/wallets/${encodeURIComponent(wallet.id)}`}
                  className="font-mono text-xs font-medium text-indigo-700 hover:underline"
                  aria-label={`Wallet ${wallet.address}`}
                >
                  {wallet.address}
                </Link>
                <CopyableId value={wallet.id} label="wallet id" isShort />
              </div>
            </Td>
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
