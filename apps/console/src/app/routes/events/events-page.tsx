import { EVENT_TYPES } from '@settlement/protocol';
import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { SelectField, TextField } from '../../../components/ui/field';
import { LoadMore } from '../../../components/ui/load-more';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { PendingNotice } from '../../../components/ui/query-view';
import { TableSkeleton } from '../../../components/ui/skeleton';
import { EVENT_FILTERS } from '../../../features/events/api/keys';
import { useEventHistory } from '../../../features/events/api/use-event-history';
import { EventDetail } from '../../../features/events/components/event-detail';
import { EventFeed } from '../../../features/events/components/event-feed';
import { EVENT_FAMILIES, filterEvents } from '../../../features/events/model/event-filter';
import { mergeEvents } from '../../../features/events/model/merge-events';
import type { RelayedEvent } from '../../../lib/events-socket';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useUrlFilters } from '../../../lib/url-filters';
import { useLiveState } from '../../live-state';
import { describeLive } from '../../shell/live-indicator';
import { PageViewsMenu } from '../../shell/page-views-menu';
import { useCatalog } from '../../use-catalog';

export function EventsPage() {
  const live = useLiveState();
  const { decimalsFor } = useCatalog();
  const [filters, setFilters] = useUrlFilters(EVENT_FILTERS);
  const family = filters.family ?? '';
  const type = filters.type ?? '';
  // The search box filters the live feed as one types; the stored history a moment later.
  const text = filters.q ?? '';
  const q = useDebouncedValue(text.trim(), 300);
  const historyFilters = {
    ...(family ? { family } : {}),
    ...(type ? { type } : {}),
    ...(q ? { q } : {}),
  };
  const history = useEventHistory(historyFilters);
  const [frozen, setFrozen] = useState<readonly RelayedEvent[] | null>(null);
  const [frozenAt, setFrozenAt] = useState(0);
  const [selectedId, setSelectedId] = useState<string | null>(null);

  const isPaused = frozen !== null;
  const liveEvents = filterEvents(frozen ?? live.feed, { family, type, text });
  const stored = history.items;
  const events = mergeEvents(liveEvents, stored);
  const selected = events.find((event) => event.id === selectedId) ?? null;
  const missed = isPaused ? live.received - frozenAt : 0;
  const connection = describeLive(live.socket, live.upstream);
  const types = EVENT_TYPES.filter((t) => !family || t.startsWith(`${family}.`));

  return (
    <>
      <PageHeader
        title="Events"
        description="The organization's events: the stored history, newest first, continued live as they happen. Filters stay in the address bar."
        actions={
          <>
            <PageViewsMenu
              subject="events"
              names={EVENT_FILTERS}
              filters={filters}
              onApply={setFilters}
            />
            <Badge
              tone={
                connection.tone === 'ok'
                  ? 'success'
                  : connection.tone === 'warn'
                    ? 'warning'
                    : 'danger'
              }
            >
              {connection.label}
            </Badge>
            {isPaused ? (
              <Button
                variant="primary"
                onClick={() => {
                  setFrozen(null);
                }}
              >
                Resume feed{missed > 0 ? ` (${missed} new)` : ''}
              </Button>
            ) : (
              <Button
                onClick={() => {
                  setFrozen(live.feed);
                  setFrozenAt(live.received);
                }}
              >
                Pause feed
              </Button>
            )}
          </>
        }
      />
      <div className="grid gap-4 lg:gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Panel>
          <div
            role="search"
            aria-label="Filter events"
            className="grid grid-cols-1 gap-3 border-b border-slate-200 p-4 sm:grid-cols-3"
          >
            <SelectField
              label="Family"
              value={family}
              onChange={(event) => {
                setFilters({ ...filters, family: event.target.value, type: '' });
              }}
              options={[
                { value: '', label: 'All families' },
                ...EVENT_FAMILIES.map((f) => ({ value: f, label: f })),
              ]}
            />
            <SelectField
              label="Event type"
              value={type}
              onChange={(event) => {
                setFilters({ ...filters, type: event.target.value });
              }}
              options={[
                { value: '', label: 'All types' },
                ...types.map((t) => ({ value: t, label: t })),
              ]}
            />
            <TextField
              label="Search events"
              type="search"
              // Short enough for the field at 1440 px: the longer list was cut off mid-word.
              placeholder="Id, correlation, address"
              value={text}
              onChange={(event) => {
                setFilters({ ...filters, q: event.target.value });
              }}
            />
          </div>
          <p className="px-4 pt-2 text-xs text-slate-600" aria-live="polite">
            {isPaused ? 'Paused. ' : ''}
            Showing {events.length.toLocaleString()} events ({stored.length.toLocaleString()} from
            the stored history, newest first).
            {history.isSearchingOlder ? ' Searching older stored events…' : ''}
          </p>
          {history.query.isError ? (
            <div className="p-4">
              <ErrorPanel
                error={history.query.error}
                onRetry={() => void history.query.refetch()}
              />
            </div>
          ) : null}
          {(history.query.isPending || history.isSearchingOlder) && events.length === 0 ? (
            <>
              <TableSkeleton
                rows={4}
                label={
                  history.isSearchingOlder
                    ? 'Searching older stored events'
                    : 'Loading the event history'
                }
              />
              {history.query.isPending ? <PendingNotice query={history.query} /> : null}
            </>
          ) : events.length === 0 ? (
            <EmptyState
              title={family || type || q ? 'No event matches the filters' : 'No events yet'}
            >
              {family || type || q
                ? 'Change the filters or the search.'
                : 'Events appear here as accounts, wallets and transactions change.'}
            </EmptyState>
          ) : (
            <>
              <EventFeed
                events={events}
                selectedId={selectedId}
                onSelect={setSelectedId}
                decimalsFor={decimalsFor}
              />
              <LoadMore query={history.loadMore} />
            </>
          )}
        </Panel>
        <Panel title="Event detail">
          {selected ? (
            <EventDetail event={selected} raw={selected} />
          ) : (
            <EmptyState title="Select an event">Its payload and links appear here.</EmptyState>
          )}
        </Panel>
      </div>
    </>
  );
}
