import type { Account } from '@settlement/protocol';
import { Link } from 'react-router';
import { CopyableId } from '../../../components/ui/copy-button';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';

export function AccountsTable({ accounts }: { accounts: Account[] }) {
  return (
    <Table label="Accounts">
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
              <Link
                to={`/accounts/${encodeURIComponent(account.id)}`}
                className="font-medium text-indigo-700 hover:underline"
              >
                {account.name}
              </Link>
            </Td>
            <Td>
              {account.externalId ? (
                <CopyableId value={account.externalId} label="external id" />
              ) : (
                <span className="text-slate-500">—</span>
              )}
            </Td>
            <Td>
              <CopyableId value={account.id} label="account id" isShort />
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
