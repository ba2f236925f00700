import { useState } from 'react';
import type { ChangeEvent, ReactNode, SubmitEvent } from 'react';
import { isoToLocalInput, localInputToIso } from '../../lib/format-time';
import { PHONE_QUERY, useMediaQuery } from '../../lib/use-media-query';
import type { Filters } from '../../lib/paging';
import { Button } from './button';
import { TextField } from './field';

/** The value and change handler of one field bound to a draft filter (`trim`: when applied). */
export type Bind<K extends string> = (
  name: K,
  options?: { trim?: boolean },
) => {
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void;
};

/**
 * A search form over URL filters: the fields edit a draft, "Apply filters" hands the draft on,
 * "Clear" (shown while any filter is applied) empties both. Key it by the applied filters so the
 * draft restarts when the URL changes.
 */
export function FilterForm<K extends string>({
  label,
  filters,
  onChange,
  className,
  actionsClassName,
  resolve = (applied) => applied,
  children,
}: {
  label: string;
  filters: Filters<K>;
  onChange: (filters: Filters<K>) => void;
  /** What the applied (trimmed) draft means, e.g. a typed name turned into its id. */
  resolve?: (applied: Filters<K>) => Filters<K>;
  className: string;
  actionsClassName: string;
  children: (draft: Filters<K>, set: (name: K, value: string) => void, bind: Bind<K>) => ReactNode;
}) {
  const [draft, setDraft] = useState<Filters<K>>(filters);
  const set = (name: K, value: string) => {
    setDraft((previous) => ({ ...previous, [name]: value }));
  };
  // Fields asked to be trimmed are trimmed when the filters are applied, not on each keystroke:
  // trimming as one types swallowed every space, so a name or a reference with a space in it
  // could only be pasted.
  const trimmed = new Set<K>();
  const bind: Bind<K> = (name, options = {}) => {
    if (options.trim) trimmed.add(name);
    return {
      value: draft[name] ?? '',
      onChange: (event) => {
        set(name, event.target.value);
      },
    };
  };
  const handleSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    const trimmedDraft: Filters<K> = { ...draft };
    for (const name of trimmed) trimmedDraft[name] = draft[name]?.trim();
    const applied = resolve(trimmedDraft);
    setDraft(applied);
    onChange(applied);
  };
  const appliedCount = Object.values(filters).filter(Boolean).length;
  const hasFilters = appliedCount > 0;
  const isPhone = useMediaQuery(PHONE_QUERY);

  const form = (
    <form role="search" aria-label={label} onSubmit={handleSubmit} className={className}>
      {children(draft, set, bind)}
      <div className={actionsClassName}>
        <Button type="submit">Apply filters</Button>
        {hasFilters ? (
          <Button
            variant="ghost"
            onClick={() => {
              setDraft({});
              onChange({});
            }}
          >
            Clear
          </Button>
        ) : null}
      </div>
    </form>
  );
  // On a phone, eight fields stacked one under another pushed the results a screen down: the
  // filters fold under one line that says how many are applied.
  if (!isPhone) return form;
  return (
    <details className="group border-b border-slate-200">
      <summary className="flex cursor-pointer items-center justify-between px-4 py-3 text-sm font-medium text-slate-800">
        <span>
          Filters
          {hasFilters ? <span className="text-slate-600"> · {appliedCount} applied</span> : null}
        </span>
        <span aria-hidden="true" className="text-slate-500 group-open:rotate-180">
          ▾
        </span>
      </summary>
      {form}
    </details>
  );
}

type CreatedRange = 'createdFrom' | 'createdTo';

/** "Created from" / "Created to" as local date-times, kept in the draft as ISO instants. */
export function CreatedRangeFields({
  draft,
  set,
}: {
  draft: Filters<CreatedRange>;
  set: (name: CreatedRange, value: string) => void;
}) {
  return (
    <>
      <TextField
        label="Created from"
        type="datetime-local"
        value={isoToLocalInput(draft.createdFrom)}
        onChange={(event) => {
          set('createdFrom', localInputToIso(event.target.value) ?? '');
        }}
      />
      <TextField
        label="Created to"
        type="datetime-local"
        value={isoToLocalInput(draft.createdTo)}
        onChange={(event) => {
          set('createdTo', localInputToIso(event.target.value) ?? '');
        }}
      />
    </>
  );
}
