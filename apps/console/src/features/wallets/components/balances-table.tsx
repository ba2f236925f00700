import type { Balance } from '@settlement/protocol';
import { Amount } from '../../../components/ui/amount';
import { EmptyState } from '../../../components/ui/empty-state';
import { Table, Td, Th } from '../../../components/ui/table';

/** Posted, reserved and available per asset and chain; exact, from the catalog's decimals. */
export function BalancesTable({
  balances,
  decimalsFor,
  label = 'Balances',
}: {
  balances: Balance[];
  decimalsFor: (asset: string) => number | null;
  label?: string;
}) {
  if (balances.length === 0) {
    return <EmptyState title="No balances yet">Deposits and transfers will show here.</EmptyState>;
  }
  return (
    <Table label={label}>
      <thead>
        <tr>
          <Th>Asset</Th>
          <Th>Chain</Th>
          <Th className="text-right">Posted</Th>
          <Th className="text-right">Reserved</Th>
          <Th className="text-right">Available</Th>
        </tr>
      </thead>
      <tbody>
        {balances.map((balance) => {
          const decimals = decimalsFor(balance.asset);
          return (
            <tr key={`${balance.asset}-${balance.chain}`}>
              <Td className="font-medium">{balance.asset}</Td>
              <Td className="font-mono text-xs">{balance.chain}</Td>
              <Td className="text-right">
                <Amount atomic={balance.postedBalance} decimals={decimals} />
              </Td>
              <Td className="text-right text-slate-700">
                <Amount atomic={balance.reservedBalance} decimals={decimals} />
              </Td>
              <Td className="text-right font-semibold">
                <Amount atomic={balance.availableBalance} decimals={decimals} />
              </Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
