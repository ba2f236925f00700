import type { Balance } from '@settlement/protocol';
import { Amount } from '../../../components/ui/amount';
import { Card, CardFields, CardList } from '../../../components/ui/card-list';
import { EmptyState } from '../../../components/ui/empty-state';
import { Table, Td, Th } from '../../../components/ui/table';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';

type DecimalsFor = (asset: string) => number | null;

/**
 * What the wallet's open withdrawal requests (awaiting approval, or approved and not yet sent)
 * take of each asset: the upstream reserves nothing for them until they are sent, so Available
 * still includes them. `isAtLeast`: a request list was full, there may be more.
 */
type OpenRequests = {
  committedFor: (asset: string) => { amountAtomic: bigint; count: number };
  isAtLeast: boolean;
};

/** "90 in 2" ("at least 90 in 2 or more" from a full list); a dash when none is open. */
function OpenRequestsAmount({
  open,
  asset,
  decimals,
}: {
  open: OpenRequests;
  asset: string;
  decimals: number | null;
}) {
  const { amountAtomic, count } = open.committedFor(asset);
  if (count === 0) return <span className="text-slate-500">—</span>;
  return (
    <span className="text-amber-900">
      {open.isAtLeast ? 'at least ' : ''}
      <Amount atomic={amountAtomic} decimals={decimals} /> in {count}
      {open.isAtLeast ? ' or more' : ''}
    </span>
  );
}

function hasOpenRequests(balances: readonly Balance[], open: OpenRequests | null): boolean {
  return open !== null && balances.some((b) => open.committedFor(b.asset).count > 0);
}

/** Said once under the balances: leaving the column out would read as nothing promised. */
function OpenRequestsUnreadableNote() {
  return (
    <p role="note" className="px-4 py-3 text-xs text-amber-900">
      Open withdrawal requests could not be read: Available may include money they already promise.
    </p>
  );
}

function OpenRequestsNote() {
  return (
    <p className="px-4 py-3 text-xs text-slate-600">
      In open requests: withdrawals awaiting approval, or approved and not yet sent. The settlement
      service reserves an amount only once its request is sent, so Available still includes them.
    </p>
  );
}

/** On a phone, where the table put the available balance (its last column) off screen. */
function BalanceCards({
  balances,
  decimalsFor,
  label,
  open,
}: {
  balances: Balance[];
  decimalsFor: DecimalsFor;
  label: string;
  open: OpenRequests | null;
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
                [
                  'In open requests',
                  open && open.committedFor(balance.asset).count > 0 ? (
                    <OpenRequestsAmount open={open} asset={balance.asset} decimals={decimals} />
                  ) : null,
                ],
              ]}
            />
          </Card>
        );
      })}
    </CardList>
  );
}

/**
 * Posted, reserved and available per asset and chain; exact, from the catalog's decimals. With
 * `openRequests` (one wallet's), what its open requests take of each asset, once any exists;
 * null while unknown (nothing said); 'unreadable' when their lists failed (a warning instead).
 */
export function BalancesTable({
  balances,
  decimalsFor,
  label = 'Balances',
  openRequests = null,
}: {
  balances: Balance[];
  decimalsFor: DecimalsFor;
  label?: string;
  openRequests?: OpenRequests | 'unreadable' | null;
}) {
  const isPhone = useMediaQuery(PHONE_QUERY);
  if (balances.length === 0) {
    return <EmptyState title="No balances yet">Deposits and transfers will show here.</EmptyState>;
  }
  const known = openRequests === 'unreadable' ? null : openRequests;
  const open = hasOpenRequests(balances, known) ? known : null;
  const unreadableNote = openRequests === 'unreadable' ? <OpenRequestsUnreadableNote /> : null;
  if (isPhone) {
    return (
      <>
        <BalanceCards balances={balances} decimalsFor={decimalsFor} label={label} open={open} />
        {open ? <OpenRequestsNote /> : null}
        {unreadableNote}
      </>
    );
  }
  return (
    <>
      <Table label={label}>
        <thead>
          <tr>
            <Th>Asset</Th>
            <Th>Chain</Th>
            <Th className="text-right">Posted</Th>
            <Th className="text-right">Reserved</Th>
            <Th className="text-right">Available</Th>
            {open ? <Th className="text-right">In open requests</Th> : null}
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
                {open ? (
                  <Td className="text-right">
                    <OpenRequestsAmount open={open} asset={balance.asset} decimals={decimals} />
                  </Td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </Table>
      {open ? <OpenRequestsNote /> : null}
      {unreadableNote}
    </>
  );
}
