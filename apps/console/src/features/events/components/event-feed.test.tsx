import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Time } from '../../../components/ui/time';
import type { FeedEvent } from '../model/event-filter';
import { EventFeed } from './event-feed';

// Every row renders one Time: counting its renders counts the rows React rendered again.
vi.mock('../../../components/ui/time', async (importOriginal) => {
  const actual = await importOriginal<{ Time: typeof Time }>();
  return { Time: vi.fn(actual.Time) };
});

// jsdom lays nothing out: give the virtualizer's scroll box a size so it renders rows.
beforeAll(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
});
afterAll(() => {
  vi.restoreAllMocks();
});

const event = (n: number): FeedEvent => ({
  id: `evt_${n}`,
  type: 'transaction.updated',
  occurredAt: `2026-03-01T10:00:0${n}.000Z`,
  data: { transactionId: `tx_${n}` },
});

describe('EventFeed', () => {
  it('renders only the new rows when events arrive at the top', async () => {
    const shown = [event(3), event(2), event(1)];
    let setEvents: (events: FeedEvent[]) => void = () => undefined;
    // Stable, as the page's state setter is.
    const onSelect = () => undefined;
    function Feed() {
      const [events, set] = useState(shown);
      setEvents = set;
      return <EventFeed events={events} selectedId={null} onSelect={onSelect} />;
    }
    render(<Feed />);
    expect(await screen.findAllByRole('button', { pressed: false })).toHaveLength(3);
    vi.mocked(Time).mockClear();

    act(() => {
      setEvents([event(5), event(4), ...shown]);
    });

    expect(screen.getAllByRole('button', { pressed: false })).toHaveLength(5);
    expect(vi.mocked(Time)).toHaveBeenCalledTimes(2);
  });
});
