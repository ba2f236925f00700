import { EVENT_TYPES } from '@settlement/protocol';
import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { SelectField, TextField } from '../../../components/ui/field';
import { PageHeader, Panel } from '../../../components/ui/page-header';
import { EventDetail } from '../../../features/events/components/event-detail';
import { EventFeed } from '../../../features/events/components/event-feed';
import { EVENT_FAMILIES, filterEvents } from '../../../features/events/components/event-filter';
import type { RelayedEvent } from '../../../lib/events-socket';
import { FEED_CAPACITY, useLiveState } from '../../live-updates';
import { describeLive } from '../../shell/live-indicator';

export function EventsPage() {
  const live = useLiveState();
  const [frozen, setFrozen] = useState<readonly RelayedEvent[] | null>(null);
  const [frozenAt, setFrozenAt] = useState(0);
  const [family, setFamily] = useState('');
  const [type, setType] = useState('');
  const [text, setText] = useState('');
  const [selectedId, setSelectedId] = useState<string | null>(null);

  const isPaused = frozen !== null;
  const source = frozen ?? live.feed;
  const events = filterEvents(source, { family, type, text });
  const selected = source.find((event) => event.id === selectedId) ?? null;
  const missed = isPaused ? live.received - frozenAt : 0;
  const connection = describeLive(live.socket, live.upstream);
  const types = EVENT_TYPES.filter((t) => !family || t.startsWith(`${family}.`));

  return (
    <>
      <PageHeader
        title="Events"
        description={`The organization's live event stream: the latest ${FEED_CAPACITY.toLocaleString()} events since the console was opened.`}
        actions={
          <>
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
      <div className="grid gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
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
                setFamily(event.target.value);
                setType('');
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
                setType(event.target.value);
              }}
              options={[
                { value: '', label: 'All types' },
                ...types.map((t) => ({ value: t, label: t })),
              ]}
            />
            <TextField
              label="Search events"
              type="search"
              placeholder="Id, correlation id, address…"
              value={text}
              onChange={(event) => {
                setText(event.target.value);
              }}
            />
          </div>
          <p className="px-4 pt-2 text-xs text-slate-600" aria-live="polite">
            {isPaused ? 'Paused. ' : ''}
            Showing {events.length.toLocaleString()} of {source.length.toLocaleString()} events.
          </p>
          {events.length === 0 ? (
            <EmptyState
              title={source.length === 0 ? 'No events yet' : 'No event matches the filters'}
            >
              {source.length === 0
                ? 'Events appear here as accounts, wallets and transactions change.'
                : 'Change the filters or the search.'}
            </EmptyState>
          ) : (
            <EventFeed events={events} selectedId={selectedId} onSelect={setSelectedId} />
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
