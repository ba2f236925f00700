import type { TimelineItem, TimelineKind } from '@settlement/protocol';
import { clsx } from 'clsx';
import { useId, useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Time } from '../../../components/ui/time';
import { RequestExplanationPanel } from './request-explanation';
import { TimelineIdList } from './timeline-ids';

/** Each kind in its own words, glyph and colour (the words carry the meaning, not the colour). */
export const KIND_STYLES: Record<
  TimelineKind,
  { label: string; glyph: string; border: string; chip: string }
> = {
  'operator-action': {
    label: 'Operator action',
    glyph: '◆',
    border: 'border-violet-500',
    chip: 'bg-violet-50 text-violet-800',
  },
  'upstream-call': {
    label: 'Upstream call',
    glyph: '⇄',
    border: 'border-sky-500',
    chip: 'bg-sky-50 text-sky-900',
  },
  approval: {
    label: 'Approval',
    glyph: '✓',
    border: 'border-amber-500',
    chip: 'bg-amber-50 text-amber-900',
  },
  event: {
    label: 'Event',
    glyph: '●',
    border: 'border-emerald-500',
    chip: 'bg-emerald-50 text-emerald-900',
  },
  'balance-effect': {
    label: 'Balance effect',
    glyph: '±',
    border: 'border-indigo-500',
    chip: 'bg-indigo-50 text-indigo-900',
  },
  'chain-confirmation': {
    label: 'Confirmation',
    glyph: '▲',
    border: 'border-teal-600',
    chip: 'bg-teal-50 text-teal-900',
  },
};

const signed = (atomic: string) =>
  atomic.startsWith('-') || atomic === '0' ? atomic : `+${atomic}`;

function UpstreamCall({ item }: { item: Extract<TimelineItem, { kind: 'upstream-call' }> }) {
  const [isOpen, setIsOpen] = useState(false);
  const regionId = useId();
  const requestId = item.ids.requestId;
  const tone =
    item.status === null
      ? 'danger'
      : item.status < 400
        ? 'success'
        : item.status >= 500
          ? 'danger'
          : 'warning';
  return (
    <>
      <p className="flex flex-wrap items-center gap-2 text-xs text-slate-700">
        <code className="font-mono">
          {item.method} {item.path}
        </code>
        <Badge tone={tone}>{item.status ?? 'no answer'}</Badge>
        <span className="tabular-nums">{item.durationMs} ms</span>
        <span>attempt {item.attempt}</span>
        {item.error ? <code className="font-mono text-red-800">{item.error}</code> : null}
        {item.operator ? <span>by {item.operator}</span> : null}
      </p>
      {item.isFailure && requestId ? (
        <div className="mt-2">
          <Button
            size="sm"
            variant="ghost"
            aria-expanded={isOpen}
            aria-controls={regionId}
            onClick={() => {
              setIsOpen((open) => !open);
            }}
          >
            {isOpen ? 'Hide why it failed' : 'Why did it fail?'}
          </Button>
          {isOpen ? (
            <section
              id={regionId}
              aria-label={`Why request ${requestId} failed`}
              className="mt-2 rounded-md border border-red-200 bg-white p-3"
            >
              <RequestExplanationPanel requestId={requestId} />
            </section>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

function Details({ item }: { item: TimelineItem }) {
  const text = 'flex flex-wrap items-center gap-2 text-xs text-slate-700';
  switch (item.kind) {
    case 'operator-action':
      return (
        <p className={text}>
          <span>{item.operator ?? 'unknown operator'}</span>
          <code className="font-mono">{item.action}</code>
          <span>{item.outcome}</span>
          {item.detail ? <span className="text-slate-600">{item.detail}</span> : null}
        </p>
      );
    case 'upstream-call':
      return <UpstreamCall item={item} />;
    case 'approval':
      return (
        <p className={text}>
          <span>{item.step}</span>
          <Badge>{item.status}</Badge>
          {item.operator ? <span>by {item.operator}</span> : null}
        </p>
      );
    case 'event':
      return (
        <p className={text}>
          <code className="font-mono">{item.type}</code>
          {item.status ? <Badge>{item.status}</Badge> : null}
          <span>{item.envelope ? `${item.envelope} envelope` : 'envelope not recognised'}</span>
          {item.sequence === null ? null : <span>sequence {item.sequence}</span>}
          <span title="Delivery is at least once: redeliveries of this event id were dropped.">
            deduplicated: first delivery kept
          </span>
        </p>
      );
    case 'balance-effect':
      return (
        <p className={text}>
          <span>{item.effect}</span>
          <span className="font-mono tabular-nums">
            posted {signed(item.postedDeltaAtomic)} · reserved {signed(item.reservedDeltaAtomic)}{' '}
            {item.asset} (atomic units)
          </span>
        </p>
      );
    case 'chain-confirmation':
      return (
        <p className={text}>
          <Badge>{item.status}</Badge>
          <span className="tabular-nums">
            {item.confirmations} of {item.requiredConfirmations} confirmations
          </span>
          {item.blockNumber === null ? null : <span>block {item.blockNumber}</span>}
        </p>
      );
  }
}

/** One line of the timeline: when, what kind, what happened, and its ids. */
export function TimelineLine({ item, current }: { item: TimelineItem; current: string }) {
  const style = KIND_STYLES[item.kind];
  return (
    <li className={clsx('rounded-r-md border-l-4 bg-white py-2 pr-3 pl-3', style.border)}>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="text-xs text-slate-600">
          <Time value={item.at} />
        </span>
        <span
          className={clsx(
            'inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-semibold',
            style.chip,
          )}
        >
          <span aria-hidden="true">{style.glyph}</span>
          {style.label}
        </span>
        <span className="text-sm font-medium text-slate-900">{item.title}</span>
      </div>
      <div className="mt-1">
        <Details item={item} />
      </div>
      <TimelineIdList ids={item.ids} current={current} />
    </li>
  );
}
