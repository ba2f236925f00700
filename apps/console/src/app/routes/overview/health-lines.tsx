import type { MpcStatus } from '@settlement/protocol';
import type { UseQueryResult } from '@tanstack/react-query';
import { clsx } from 'clsx';
import { Link } from 'react-router';
import { formatRelative } from '../../../lib/format-time';
import type { useLiveState } from '../../live-state';
import { describeLive } from '../../shell/live-indicator';

type Tone = 'ok' | 'warn' | 'bad';

/**
 * One line: a dot, the name and what it says, and an optional `action` (a link) at the end of
 * the line, outside the text: when the text changes, it moves nothing after it.
 */
function Line({
  name,
  tone,
  children,
  action,
}: {
  name: string;
  tone: Tone;
  children: React.ReactNode;
  action?: React.ReactNode;
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
      {action ? <span className="ml-auto shrink-0">{action}</span> : null}
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
            {data.keyStatus !== 'ACTIVE' || notReady.length > 0 ? (
              <>
                {' '}
                <Link to="/setup" className="font-medium text-indigo-700 underline">
                  Finish setup
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
      {/* The state in one text node, the link outside it: the stream goes from connecting to
          live as the page opens, and text after the changing words moved with them (the
          separator, the link: a layout shift). */}
      <Line
        name="Event stream"
        tone={stream.tone}
        action={
          <Link to="/events" className="font-medium text-indigo-700 underline">
            Events
          </Link>
        }
      >
        {`${stream.label.toLowerCase()} — ${stream.detail}`}
      </Line>
    </ul>
  );
}
