import { useVirtualizer } from '@tanstack/react-virtual';
import { clsx } from 'clsx';
import { memo, useRef } from 'react';
import { Time } from '../../../components/ui/time';
import { eventSummary } from '../../../lib/event-summary';
import type { FeedEvent } from '../model/event-filter';

const ROW_HEIGHT = 56;

/**
 * One event. Memoized: when new events arrive at the top, the rows already shown only move
 * down (their `li` changes position), they do not render again.
 */
const FeedRow = memo(function FeedRow({
  event,
  isSelected,
  onSelect,
  decimalsFor,
}: {
  event: FeedEvent;
  isSelected: boolean;
  onSelect: (id: string) => void;
  decimalsFor: ((asset: string) => number | null) | undefined;
}) {
  return (
    <button
      type="button"
      onClick={() => {
        onSelect(event.id);
      }}
      aria-pressed={isSelected}
      className={clsx(
        // Two lines on a phone (time and type, then the summary), one row from md up.
        'grid h-full w-full grid-cols-[auto_minmax(0,1fr)] content-center gap-x-3 border-b border-slate-100 px-4 text-left text-sm focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600 md:grid-cols-[11rem_13rem_minmax(0,1fr)] md:items-center',
        isSelected ? 'bg-indigo-50' : 'hover:bg-slate-50',
      )}
    >
      <span className="truncate text-xs text-slate-600">
        <Time value={event.occurredAt} />
      </span>
      <span className="truncate font-mono text-xs font-medium text-slate-900">{event.type}</span>
      <span className="col-span-2 truncate text-xs text-slate-700 md:col-span-1">
        {eventSummary(event, decimalsFor)}
      </span>
    </button>
  );
});

/** The live feed, virtualized: only visible rows are rendered, whatever the buffer holds. */
export function EventFeed({
  events,
  selectedId,
  onSelect,
  decimalsFor,
}: {
  events: readonly FeedEvent[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  decimalsFor?: (asset: string) => number | null;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual is the chosen virtualizer
  const virtualizer = useVirtualizer({
    count: events.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // Each flush of new events at the top replaces the rows in view: every row beyond the
    // edges is one more to render per flush.
    overscan: 3,
    getItemKey: (index) => events[index]?.id ?? index,
    initialRect: { width: 800, height: 600 },
  });
  return (
    <div
      ref={scrollRef}
      className="relative h-[65vh] overflow-auto"
      role="region"
      aria-label="Event feed (scrollable)"
      tabIndex={0}
    >
      <ul className="relative" style={{ height: virtualizer.getTotalSize() }} aria-label="Events">
        {virtualizer.getVirtualItems().map((item) => {
          const event = events[item.index];
          if (!event) return null;
          return (
            <li
              key={event.id}
              // Fixed size, out of flow, painting inside itself (contain: strict): a row that
              // changes is laid out and painted alone, never the list around it.
              className="absolute right-0 left-0 [contain:strict]"
              style={{ top: item.start, height: ROW_HEIGHT }}
            >
              <FeedRow
                event={event}
                isSelected={event.id === selectedId}
                onSelect={onSelect}
                decimalsFor={decimalsFor}
              />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
