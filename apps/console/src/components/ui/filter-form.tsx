import { useState } from 'react';
import type { ChangeEvent, ReactNode, SubmitEvent } from 'react';
import { isoToLocalInput, localInputToIso } from '../../lib/format-time';
import type { Filters } from '../../lib/paging';
import { Button } from './button';
import { TextField } from './field';

/** The value and change handler of one field bound to a draft filter; ids are trimmed. */
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
  children,
}: {
  label: string;
  filters: Filters<K>;
  onChange: (filters: Filters<K>) => void;
  className: string;
  actionsClassName: string;
  children: (draft: Filters<K>, set: (name: K, value: string) => void, bind: Bind<K>) => ReactNode;
}) {
  const [draft, setDraft] = useState<Filters<K>>(filters);
  const set = (name: K, value: string) => {
    setDraft((previous) => ({ ...previous, [name]: value }));
  };
  const bind: Bind<K> = (name, options = {}) => ({
    value: draft[name] ?? '',
    onChange: (event) => {
      set(name, options.trim ? event.target.value.trim() : event.target.value);
    },
  });
  const handleSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    onChange(draft);
  };
  const hasFilters = Object.values(filters).some(Boolean);

  return (
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
