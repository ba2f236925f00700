import { clsx } from 'clsx';
import { Time } from '../../../components/ui/time';
import type { Milestone } from '../model/milestones';

const dot: Record<Milestone['state'], string> = {
  done: 'bg-emerald-600 ring-emerald-100',
  current: 'bg-amber-500 ring-amber-100 animate-pulse',
  pending: 'bg-slate-300 ring-slate-100',
  failed: 'bg-red-600 ring-red-100',
  skipped: 'bg-white ring-slate-200 border border-slate-400',
};

const stateText: Record<Milestone['state'], string> = {
  done: 'done',
  current: 'in progress',
  pending: 'not yet',
  failed: 'failed',
  skipped: 'did not happen',
};

export function StatusTimeline({ milestones }: { milestones: Milestone[] }) {
  return (
    <ol className="space-y-0 p-4" aria-label="Status timeline">
      {milestones.map((milestone, index) => (
        <li key={milestone.key} className="relative flex gap-3 pb-4 last:pb-0">
          {index < milestones.length - 1 ? (
            <span
              aria-hidden="true"
              className="absolute top-4 left-[5px] h-full w-px bg-slate-200"
            />
          ) : null}
          <span
            aria-hidden="true"
            className={clsx(
              'relative mt-1 size-3 shrink-0 rounded-full ring-4',
              dot[milestone.state],
            )}
          />
          <div className="min-w-0 text-sm">
            <p
              className={clsx(
                'font-medium',
                milestone.state === 'pending' || milestone.state === 'skipped'
                  ? 'text-slate-600'
                  : 'text-slate-900',
              )}
            >
              {milestone.label}{' '}
              {milestone.state === 'skipped' ? (
                // Said in words, not only by the hollow dot: this step never took place.
                <span className="text-xs font-normal text-slate-600">({stateText.skipped})</span>
              ) : (
                <span className="sr-only">({stateText[milestone.state]})</span>
              )}
            </p>
            {milestone.at ? (
              <p className="text-xs text-slate-600">
                <Time value={milestone.at} />
              </p>
            ) : null}
            {milestone.detail ? (
              <p
                className={clsx(
                  'font-mono text-xs break-all',
                  milestone.state === 'failed' ? 'text-red-800' : 'text-slate-700',
                )}
              >
                {milestone.detail}
              </p>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
