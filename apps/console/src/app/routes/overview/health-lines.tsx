import { chainReadiness, type MpcStatus } from '@settlement/protocol';
import type { UseQueryResult } from '@tanstack/react-query';
import { clsx } from 'clsx';
import { Link } from 'react-router';
import { formatRelative } from '../../../lib/format-time';
import type { useLiveState } from '../../live-state';
import { describeLive } from '../../shell/live-indicator';

type Tone = 'ok' | 'warn' | 'bad';

/** One line: a dot, the name (a word or a link) and what it says. */
function Line({
  name,
  tone,
  children,
}: {
  name: React.ReactNode;
  tone: Tone;
  children: React.ReactNode;
}) {
  return (
    <li className="flex items-start gap-2">
      <span
        aria-hidden="true"
        className={clsx(
          'mt-1.5 size-2 shrink-0 rounded-full',
          tone === 'ok' && 'bg-emerald-600',
          tone === 'warn' && 'bg-amber-500',
          tone === 'bad' && 'bg-red-600',
        )}
      />
      <span className="min-w-0">
        <span className="font-medium text-slate-900">{name}:</span> {children}
      </span>
    </li>
  );
}

/** Co-Signer, MPC and the event stream, one line each, in words (colour only repeats them). */
export function HealthLines({
  status,
  live,
}: {
  status: UseQueryResult<MpcStatus>;
  live: ReturnType<typeof useLiveState>;
}) {
  const stream = describeLive(live.socket, live.upstream);
  const data = status.data;
  const notReady = data?.chains.filter((c) => !c.ready) ?? [];
  // Why they are not ready, in the words the withdrawal form uses, when one cause covers them
  // all: an active key on chains held back by an offline Co-Signer is not unfinished setup.
  const reasons = new Set(
    data ? notReady.map((c) => chainReadiness(data, c.chain).reason ?? '') : [],
  );
  const [onlyReason] = reasons.size === 1 ? [...reasons] : [];
  return (
    <ul className="space-y-2 p-4 text-sm" aria-label="Health">
      {data ? (
        <>
          <Line name="Co-Signer" tone={data.coSigner.status === 'ONLINE' ? 'ok' : 'bad'}>
            {data.coSigner.status === 'ONLINE' ? 'online' : 'offline'}
            {data.coSigner.lastSeenAt
              ? `, last seen ${formatRelative(data.coSigner.lastSeenAt)}`
              : ''}
          </Line>
          <Line
            name="MPC"
            tone={data.keyStatus === 'ACTIVE' && notReady.length === 0 ? 'ok' : 'warn'}
          >
            {data.keyStatus === null ? 'not initialized' : `key ${data.keyStatus.toLowerCase()}`}
            {notReady.length > 0
              ? `, not ready on ${notReady.map((c) => c.chain).join(', ')}`
              : ', all chains ready'}
            {data.keyStatus === 'ACTIVE' && notReady.length > 0 && onlyReason
              ? ` — ${onlyReason}`
              : ''}
            {data.keyStatus !== 'ACTIVE' || notReady.length > 0 ? (
              <>
                {' '}
                <Link to="/setup" className="font-medium text-indigo-700 underline">
                  {data.keyStatus === 'ACTIVE' ? 'Open Setup' : 'Finish setup'}
                </Link>
              </>
            ) : null}
          </Line>
        </>
      ) : (
        <Line name="Co-Signer and MPC" tone={status.isError ? 'bad' : 'warn'}>
          {status.isError ? 'status could not be read' : 'checking…'}
        </Line>
      )}
      {/* The name links to the Events page and the state is last, in one text node: the
          stream goes from connecting to live as the page opens, and the separator and link that
          followed the changing words moved with them (a layout shift). The line's text stays
          smaller than the page header's description, the overview's largest paint (LCP). */}
      <Line
        name={
          <Link to="/events" className="text-indigo-700 underline">
            Event stream
          </Link>
        }
        tone={stream.tone}
      >
        {`${stream.label.toLowerCase()} — ${stream.detail}`}
      </Line>
    </ul>
  );
}
