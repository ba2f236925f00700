import type { Account } from '@settlement/protocol';
import { Link } from 'react-router';
import { Card, CardFields, CardList } from '../../../components/ui/card-list';
import { CopyableId } from '../../../components/ui/copy-button';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';

const LABEL = 'Accounts';

function AccountLink({ account }: { account: Account }) {
  return (
    <Link
      to={`/accounts/${encodeURIComponent(account.id)}`}
      className="font-medium text-indigo-700 hover:underline"
    >
      {account.name}
    </Link>
  );
}

function ExternalId({ account }: { account: Account }) {
  return account.externalId ? (
    <CopyableId value={account.externalId} label="external id" />
  ) : (
    <span className="text-slate-500">—</span>
  );
}

function AccountId({ account }: { account: Account }) {
  return <CopyableId value={account.id} label="account id" isShort />;
}

/** On a phone, where the table put the account id and creation date beyond the right edge. */
function AccountCards({ accounts }: { accounts: Account[] }) {
  return (
    <CardList label={LABEL}>
      {accounts.map((account) => (
        <Card key={account.id}>
          <p>
            <AccountLink account={account} />
          </p>
          <CardFields
            fields={[
              ['External id', <ExternalId account={account} />],
              ['Account id', <AccountId account={account} />],
              ['Created', <Time value={account.createdAt} />],
            ]}
          />
        </Card>
      ))}
    </CardList>
  );
}

export function AccountsTable({ accounts }: { accounts: Account[] }) {
  const isPhone = useMediaQuery(PHONE_QUERY);
  if (isPhone) return <AccountCards accounts={accounts} />;
  return (
    <Table label={LABEL}>
      <thead>
        <tr>
          <Th>Name</Th>
          <Th>External id</Th>
          <Th>Account id</Th>
          <Th>Created</Th>
        </tr>
      </thead>
      <tbody>
        {accounts.map((account) => (
          <tr key={account.id} className="hover:bg-slate-50">
            <Td>
              <AccountLink account={account} />
            </Td>
            <Td>
              <ExternalId account={account} />
            </Td>
            <Td>
              <AccountId account={account} />
            </Td>
            <Td>
              <Time value={account.createdAt} />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
