import { PasskeyListSchema } from '@settlement/protocol';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screenIs } from '../../../test/screen-width';
import { PasskeysTable } from './passkeys-table';

const { items: passkeys } = PasskeyListSchema.parse({
  items: [
    {
      id: 'pk-laptop',
      name: 'Work laptop',
      createdAt: '2026-11-02T08:00:00.000Z',
      lastUsedAt: '2026-11-24T09:00:00.000Z',
      isBackedUp: true,
    },
    {
      id: 'pk-phone',
      name: 'Phone',
      createdAt: '2026-11-03T08:00:00.000Z',
      lastUsedAt: null,
      isBackedUp: false,
    },
  ],
  requirePasskeys: true,
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('your passkeys', () => {
  it('is a table on a wide screen, with a Remove button for each passkey, and no list', () => {
    screenIs('desktop');
    render(
      <PasskeysTable
        passkeys={passkeys}
        isBusy={false}
        isLastProtected={false}
        onRemove={vi.fn()}
      />,
    );
    const table = screen.getByRole('table', { name: 'Your passkeys' });
    expect(within(table).getByRole('button', { name: 'Remove Work laptop' })).toBeEnabled();
    expect(within(table).getByRole('button', { name: 'Remove Phone' })).toBeEnabled();
    expect(screen.queryByRole('list', { name: 'Your passkeys' })).not.toBeInTheDocument();
  });

  it('stacks each passkey as a card on a phone, its dates shown and its Remove button full width', async () => {
    screenIs('phone');
    const onRemove = vi.fn();
    render(
      <PasskeysTable
        passkeys={passkeys}
        isBusy={false}
        isLastProtected={false}
        onRemove={onRemove}
      />,
    );
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(screen.getByRole('list', { name: 'Your passkeys' })).getAllByRole(
      'listitem',
    );
    expect(cards).toHaveLength(2);
    const [laptop, phone] = cards as [HTMLElement, HTMLElement];
    const facts = within(laptop);
    expect(facts.getByText('Work laptop')).toBeInTheDocument();
    expect(facts.getByText('Added').nextElementSibling?.querySelector('time')).toHaveAttribute(
      'dateTime',
      '2026-11-02T08:00:00.000Z',
    );
    expect(facts.getByText('Last used').nextElementSibling?.querySelector('time')).toHaveAttribute(
      'dateTime',
      '2026-11-24T09:00:00.000Z',
    );
    expect(within(phone).getByText('Last used').nextElementSibling).toHaveTextContent('Never');
    const remove = facts.getByRole('button', { name: 'Remove Work laptop' });
    expect(remove).toHaveClass('w-full');
    await userEvent.click(remove);
    expect(onRemove).toHaveBeenCalledWith('pk-laptop');
  });

  it('keeps the last required passkey from removal on a phone, saying why', () => {
    screenIs('phone');
    render(
      <PasskeysTable
        passkeys={passkeys.slice(0, 1)}
        isBusy={false}
        isLastProtected
        onRemove={vi.fn()}
      />,
    );
    const remove = within(screen.getByRole('list', { name: 'Your passkeys' })).getByRole('button', {
      name: 'Remove Work laptop',
    });
    expect(remove).toBeDisabled();
    expect(remove).toHaveAttribute(
      'title',
      'Passkeys are required: add another one before removing this one.',
    );
  });
});
