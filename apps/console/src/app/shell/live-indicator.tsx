import { clsx } from 'clsx';
import { useLiveState } from '../live-updates';

type Indicator = { label: string; detail: string; tone: 'ok' | 'warn' | 'bad' };

export function describeLive(socket: string, upstream: string | null): Indicator {
  if (socket === 'open' && (upstream === 'connected' || upstream === null)) {
    return { label: 'Live', detail: 'Receiving events as they happen.', tone: 'ok' };
  }
  if (socket === 'open' && upstream === 'reconnecting') {
    return {
      label: 'Upstream reconnecting',
      detail: 'The service event stream is reconnecting; missed events will follow.',
      tone: 'warn',
    };
  }
  if (socket === 'open' && upstream === 'offline') {
    return { label: 'Upstream offline', detail: 'The service event stream is down.', tone: 'bad' };
  }
  if (socket === 'connecting' || socket === 'reconnecting') {
    return {
      label: 'Reconnecting',
      detail: 'Reconnecting to live updates; it resumes from the last event seen.',
      tone: 'warn',
    };
  }
  return {
    label: 'Offline',
    detail: 'Live updates are off. Pages still load on demand.',
    tone: 'bad',
  };
}

export function LiveIndicator() {
  const { socket, upstream } = useLiveState();
  const indicator = describeLive(socket, upstream);
  return (
    <span
      role="status"
      aria-label={`Live updates: ${indicator.label}`}
      title={indicator.detail}
      data-state={indicator.tone}
      className="inline-flex items-center gap-1.5 rounded-full bg-slate-100 px-2.5 py-1 text-xs font-medium text-slate-800"
    >
      <span
        aria-hidden="true"
        className={clsx(
          'size-2 rounded-full',
          indicator.tone === 'ok' && 'bg-emerald-600',
          indicator.tone === 'warn' && 'animate-pulse bg-amber-500',
          indicator.tone === 'bad' && 'bg-red-600',
        )}
      />
      {indicator.label}
    </span>
  );
}
