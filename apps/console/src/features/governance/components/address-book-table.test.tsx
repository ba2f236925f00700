import { AddressBookEntrySchema } from '@settlement/protocol';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screenIs } from '../../../test/screen-width';
import { AddressBookTable } from './address-book-table';

const ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const entry = AddressBookEntrySchema.parse({
  id: 'ab_1',
  chain: 'tron:nile',
  address: ADDRESS,
  label: 'Cold storage',
  status: 'PENDING_APPROVAL',
  createdBy: 'admin',
  createdAt: '2026-11-25T07:00:00.000Z',
  approvedBy: null,
  approvedAt: null,
  removedBy: null,
  removedAt: null,
});

function renderFor(username: string, role = 'admin') {
  const onApprove = vi.fn();
  render(
    <AddressBookTable
      label="Pending approval"
      entries={[entry]}
      operator={{ username, role }}
      isBusy={false}
      onApprove={onApprove}
      onRemove={vi.fn()}
    />,
  );
  return { onApprove };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the address book on a phone', () => {
  it('shows each entry as a card with its whole address above the Approve button', async () => {
    screenIs('phone');
    const { onApprove } = renderFor('admin2');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const card = within(screen.getByRole('list', { name: 'Pending approval' })).getByRole(
      'listitem',
    );
    const facts = within(card);
    expect(facts.getByText(ADDRESS)).toBeInTheDocument();
    expect(facts.getByText('Cold storage')).toBeInTheDocument();
    expect(card).toHaveTextContent(/Proposed by admin/);
    await userEvent.click(facts.getByRole('button', { name: 'Approve Cold storage' }));
    expect(onApprove).toHaveBeenCalledWith('ab_1');
  });

  it('never offers the proposer the Approve button', () => {
    screenIs('phone');
    renderFor('admin');
    expect(screen.queryByRole('button', { name: 'Approve Cold storage' })).not.toBeInTheDocument();
    expect(screen.getByText('Another admin must approve')).toBeInTheDocument();
  });

  it('shows no button at all to a treasurer', () => {
    screenIs('phone');
    renderFor('treasury', 'treasury');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByText(ADDRESS)).toBeInTheDocument();
  });
});

describe('the address book on a wide screen', () => {
  it('is a table with the same actions', () => {
    screenIs('desktop');
    renderFor('admin2');
    const table = screen.getByRole('table', { name: 'Pending approval' });
    expect(within(table).getByRole('button', { name: 'Approve Cold storage' })).toBeEnabled();
    expect(within(table).getByRole('button', { name: 'Remove Cold storage' })).toBeEnabled();
  });
});
