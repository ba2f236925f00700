import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { useLiveState } from '../live-state';
import { requestBackfill } from '../live-updates';
import {
  ageMs,
  formatDuration,
  lagMs,
  missingCount,
  type BackfillStatus,
  type StreamHealthSnapshot,
} from '../stream-health';

/** The current time, re-read every `periodMs` while mounted (age and lag keep moving). */
function useNow(periodMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
    }, periodMs);
    return () => {
      clearInterval(timer);
    };
  }, [periodMs]);
  return now;
}

function backfillText(status: BackfillStatus): string | null {
  switch (status.state) {
    case 'idle':
      return null;
    case 'running':
      return 'Backfilling…';
    case 'failed':
      return `Backfill failed: ${status.message}`;
    case 'done':
      return status.unrecovered === 0
        ? `Backfill done: ${String(status.recovered)} missing event(s) recovered; lists reloaded.`
        : `Backfill done: ${String(status.recovered)} recovered, ${String(status.unrecovered)} not in the history; lists reloaded from REST.`;
  }
}

function gapsText(health: StreamHealthSnapshot): string {
  const open = health.openGaps.length;
  if (open === 0)
    return health.gapsDetected === 0 ? 'None' : `None open (${String(health.gapsDetected)} found)`;
  return `${String(open)} open, ${String(missingCount(health.openGaps))} event(s) missing`;
}

/**
 * The stream's health under the Live badge: connection, lag, age of the last event, duplicates
 * the dedupe dropped, sequence gaps, and a backfill that reconciles them through REST.
 */
export function StreamHealthPanel({ id, connection }: { id: string; connection: string }) {
  const { socket, health } = useLiveState();
  const now = useNow();
  const lag = lagMs(health, now);
  const age = ageMs(health, now);
  const isRunning = health.backfill.state === 'running';
  const result = backfillText(health.backfill);
  const rows: [string, string][] = [
    [
      'Connection',
      socket === 'open' ? `Connected (${connection})` : `Not connected (${connection})`,
    ],
    ['Lag', lag === null ? 'No event yet' : formatDuration(lag)],
    ['Last event', age === null ? 'No event yet' : `${formatDuration(age)} ago`],
    ['Duplicates dropped', String(health.duplicatesDropped)],
    ['Sequence gaps', gapsText(health)],
  ];
  return (
    <section
      id={id}
      aria-label="Event stream health"
      className="absolute left-0 top-full z-20 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-lg border border-slate-200 bg-white p-3 text-sm text-slate-800 shadow-lg"
    >
      <h2 className="mb-2 text-sm font-semibold">Event stream</h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-slate-600">{term}</dt>
            <dd className="text-right tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-3 flex items-center justify-between gap-2">
        <p className="text-xs text-slate-600">
          Reloads the lists from REST and fills missing events from the stored history.
        </p>
        <Button
          size="sm"
          variant={health.openGaps.length > 0 ? 'primary' : 'secondary'}
          disabled={isRunning}
          onClick={() => {
            void requestBackfill();
          }}
        >
          Backfill
        </Button>
      </div>
      {result && (
        <p role="status" className="mt-2 text-xs text-slate-700">
          {result}
        </p>
      )}
    </section>
  );
}
