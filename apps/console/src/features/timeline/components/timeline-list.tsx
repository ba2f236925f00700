import type { Timeline } from '@settlement/protocol';
import { EmptyState } from '../../../components/ui/empty-state';
import { KIND_STYLES, TimelineLine } from './timeline-line';

/** The merged timeline of one id, oldest first, as the BFF ordered it. */
export function TimelineList({ timeline }: { timeline: Timeline }) {
  if (timeline.items.length === 0) {
    return (
      <EmptyState title="Nothing happened under this id">
        No operator action, upstream call, approval, event, balance effect or confirmation carries
        it. Check the id, or search for it in Support.
      </EmptyState>
    );
  }
  return (
    <div className="space-y-3">
      <p className="flex flex-wrap gap-2 text-xs text-slate-700">
        {timeline.items.length} lines:
        {timeline.kinds.map((kind) => (
          <span key={kind}>
            {KIND_STYLES[kind].label} ({timeline.items.filter((i) => i.kind === kind).length})
          </span>
        ))}
      </p>
      {timeline.isTruncated ? (
        <p role="note" className="rounded-md bg-amber-50 p-2 text-xs text-amber-900">
          The timeline was cut short: the newest lines are missing. Look up a more specific id.
        </p>
      ) : null}
      <ol aria-label={`Timeline of ${timeline.query}`} className="space-y-2">
        {timeline.items.map((item, index) => (
          // Lines have no id of their own; the BFF's order is stable for one answer.
          <TimelineLine
            key={`${item.at}-${item.kind}-${index}`}
            item={item}
            current={timeline.query}
          />
        ))}
      </ol>
    </div>
  );
}
