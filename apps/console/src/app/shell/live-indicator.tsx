import { clsx } from 'clsx';
import { Suspense, lazy, useEffect, useId, useState } from 'react';
import { focusRing } from '../../components/ui/button';
import { useLiveState } from '../live-state';

// The details panel loads when first opened: every page shows the badge, few open the panel.
const StreamHealthPanel = lazy(() =>
  import('./stream-health').then((m) => ({ default: m.StreamHealthPanel })),
);

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
  if (socket === 'connecting') {
    return {
      label: 'Connecting',
      detail: 'Connecting to live updates; pages load meanwhile.',
      tone: 'warn',
    };
  }
  if (socket === 'reconnecting') {
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
  const { socket, upstream, health } = useLiveState();
  const indicator = describeLive(socket, upstream);
  const [isOpen, setIsOpen] = useState(false);
  const panelId = useId();
  const hasGaps = health.openGaps.length > 0;
  useEffect(() => {
    if (!isOpen) return;
    const handleKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setIsOpen(false);
    };
    window.addEventListener('keydown', handleKey);
    return () => {
      window.removeEventListener('keydown', handleKey);
    };
  }, [isOpen]);
  return (
    // One pill holds the button and the badge, so they read as one control ("▾ ● Live"), not as
    // a stray arrow beside the menu button on a phone.
    <div className="relative inline-flex items-center rounded-full bg-slate-100">
      {/* The health details sit behind a button beside the badge, so the badge stays a plain
          status that screen readers announce when the connection changes. The button comes
          first: the badge ends the top bar's left group, so its width (Connecting, then Live as
          the page opens) moves nothing after it (it moved this button: a layout shift). */}
      <button
        type="button"
        aria-expanded={isOpen}
        aria-controls={isOpen ? panelId : undefined}
        aria-label={hasGaps ? 'Stream health (gaps detected)' : 'Stream health'}
        onClick={() => {
          setIsOpen((open) => !open);
        }}
        className={clsx(
          'inline-flex size-6 items-center justify-center rounded-full text-xs text-slate-700 hover:bg-slate-200 max-lg:size-11',
          hasGaps && 'bg-amber-100 text-amber-900',
          focusRing,
        )}
      >
        <span aria-hidden="true">{hasGaps ? '!' : '▾'}</span>
      </button>
      <LiveBadge indicator={indicator} />
      {isOpen && (
        <Suspense fallback={null}>
          <StreamHealthPanel id={panelId} connection={indicator.label} />
        </Suspense>
      )}
    </div>
  );
}

function LiveBadge({ indicator }: { indicator: Indicator }) {
  return (
    <span
      role="status"
      aria-label={`Live updates: ${indicator.label}`}
      title={indicator.detail}
      data-state={indicator.tone}
      className="inline-flex items-center gap-1.5 rounded-full py-1 pr-2.5 pl-1 text-xs font-medium text-slate-800"
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
