import { AccountSchema } from '@settlement/protocol';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { screenIs } from '../../../test/screen-width';
import { AccountsTable } from './accounts-table';

const ACCOUNT_ID = 'acc_01JCXG4N8Q2V7WZKH3M5RT9BYE';
const accounts = [
  {
    id: ACCOUNT_ID,
    orgId: 'org_test',
    name: 'Merchant A',
    externalId: 'crm-4711',
    metadata: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  },
  {
    id: 'acc_2',
    orgId: 'org_test',
    name: 'Merchant B',
    externalId: null,
    metadata: null,
    createdAt: '2026-01-02T00:00:00.000Z',
    updatedAt: '2026-01-02T00:00:00.000Z',
  },
].map((account) => AccountSchema.parse(account));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the accounts list', () => {
  it('is cards on a phone, each with its link, ids to copy and creation date, and no table', () => {
    screenIs('phone');
    renderWithApp(<AccountsTable accounts={accounts} />);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(screen.getByRole('list', { name: 'Accounts' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const [first, second] = cards;
    if (!first || !second) throw new Error('two cards');
    const facts = within(first);
    expect(facts.getByRole('link', { name: 'Merchant A' })).toHaveAttribute(
      'href',
      `/accounts/${ACCOUNT_ID}`,
    );
    expect(facts.getByText('External id').nextElementSibling).toHaveTextContent('crm-4711');
    expect(facts.getByRole('button', { name: 'Copy external id' })).toBeInTheDocument();
    expect(facts.getByText('Account id').nextElementSibling?.querySelector('code')).toHaveAttribute(
      'title',
      ACCOUNT_ID,
    );
    expect(facts.getByRole('button', { name: 'Copy account id' })).toBeInTheDocument();
    expect(facts.getByText('Created').nextElementSibling?.querySelector('time')).toHaveAttribute(
      'dateTime',
      '2026-01-01T00:00:00.000Z',
    );
    expect(within(second).getByText('External id').nextElementSibling).toHaveTextContent(/^—$/);
  });

  it('is a table on a wide screen, and no list', () => {
    screenIs('desktop');
    renderWithApp(<AccountsTable accounts={accounts} />);
    expect(screen.queryByRole('list', { name: 'Accounts' })).not.toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Accounts' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByRole('link', { name: 'Merchant A' })).toHaveAttribute(
      'href',
      `/accounts/${ACCOUNT_ID}`,
    );
  });
});
