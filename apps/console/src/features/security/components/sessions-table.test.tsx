import { SessionInfoSchema } from '@settlement/protocol';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screenIs } from '../../../test/screen-width';
import { SessionsTable } from './sessions-table';

const sessions = [
  {
    id: 'current',
    username: 'treasury',
    device: 'Chrome on Linux',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140',
    ip: '127.0.0.1',
    createdAt: '2026-11-25T06:00:00.000Z',
    lastSeenAt: '2026-11-25T07:00:00.000Z',
    isCurrent: true,
  },
  {
    id: 'lost-laptop',
    username: 'treasury',
    device: 'Firefox on macOS',
    userAgent: 'Mozilla/5.0 (Macintosh) Firefox/140',
    ip: '10.0.0.7',
    createdAt: '2026-11-24T09:00:00.000Z',
    lastSeenAt: '2026-11-24T18:30:00.000Z',
    isCurrent: false,
  },
].map((session) => SessionInfoSchema.parse(session));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the sessions list', () => {
  it('is a table on a wide screen, with an End button for every other session only', () => {
    screenIs('desktop');
    render(
      <SessionsTable label="Your sessions" sessions={sessions} isBusy={false} onEnd={vi.fn()} />,
    );
    const table = screen.getByRole('table', { name: 'Your sessions' });
    expect(within(table).getAllByRole('button')).toHaveLength(1);
    expect(
      within(table).getByRole('button', { name: 'End session on Firefox on macOS' }),
    ).toBeEnabled();
  });

  it('stacks each session as a card on a phone, every fact shown and its End button in reach', async () => {
    screenIs('phone');
    const onEnd = vi.fn();
    render(
      <SessionsTable label="Your sessions" sessions={sessions} isBusy={false} onEnd={onEnd} />,
    );
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(screen.getByRole('list', { name: 'Your sessions' })).getAllByRole(
      'listitem',
    );
    expect(cards).toHaveLength(2);
    const [current, lost] = cards;
    if (!current || !lost) throw new Error('two cards');
    expect(within(current).getByText('This session')).toBeInTheDocument();
    expect(within(current).queryByRole('button')).not.toBeInTheDocument();
    const facts = within(lost);
    expect(facts.getByText('IP address').nextElementSibling).toHaveTextContent('10.0.0.7');
    expect(facts.getByText('Signed in').nextElementSibling?.querySelector('time')).toHaveAttribute(
      'dateTime',
      '2026-11-24T09:00:00.000Z',
    );
    expect(facts.getByText('Last seen').nextElementSibling?.querySelector('time')).toHaveAttribute(
      'dateTime',
      '2026-11-24T18:30:00.000Z',
    );
    await userEvent.click(facts.getByRole('button', { name: 'End session on Firefox on macOS' }));
    expect(onEnd).toHaveBeenCalledWith('lost-laptop');
  });

  it('disables the End buttons while an ending is under way', () => {
    screenIs('phone');
    render(<SessionsTable label="Your sessions" sessions={sessions} isBusy onEnd={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'End session on Firefox on macOS' })).toBeDisabled();
  });
});
