import type { Balance } from '@settlement/protocol';
import { Amount } from '../../../components/ui/amount';
import { Card, CardFields, CardList } from '../../../components/ui/card-list';
import { EmptyState } from '../../../components/ui/empty-state';
import { Table, Td, Th } from '../../../components/ui/table';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';

type DecimalsFor = (asset: string) => number | null;

/** On a phone, where the table put the available balance (its last column) off screen. */
function BalanceCards({
  balances,
  decimalsFor,
  label,
}: {
  balances: Balance[];
  decimalsFor: DecimalsFor;
  label: string;
}) {
  return (
    <CardList label={label}>
      {balances.map((balance) => {
        const decimals = decimalsFor(balance.asset);
        return (
          <Card key={`${balance.asset}-${balance.chain}`}>
            <p className="font-medium">{balance.asset}</p>
            <CardFields
              fields={[
                ['Chain', <span className="font-mono">{balance.chain}</span>],
                ['Posted', <Amount atomic={balance.postedBalance} decimals={decimals} />],
                ['Reserved', <Amount atomic={balance.reservedBalance} decimals={decimals} />],
                [
                  'Available',
                  <span className="font-semibold">
                    <Amount atomic={balance.availableBalance} decimals={decimals} />
                  </span>,
                ],
              ]}
            />
          </Card>
        );
      })}
    </CardList>
  );
}

/** Posted, reserved and available per asset and chain; exact, from the catalog's decimals. */
export function BalancesTable({
  balances,
  decimalsFor,
  label = 'Balances',
}: {
  balances: Balance[];
  decimalsFor: DecimalsFor;
  label?: string;
}) {
  const isPhone = useMediaQuery(PHONE_QUERY);
  if (balances.length === 0) {
    return <EmptyState title="No balances yet">Deposits and transfers will show here.</EmptyState>;
  }
  if (isPhone) return <BalanceCards balances={balances} decimalsFor={decimalsFor} label={label} />;
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
