import { TextField } from '../../../components/ui/field';
import { FilterForm } from '../../../components/ui/filter-form';
import { isoToLocalInput, localInputToIso } from '../../../lib/format-time';
import type { AuditFilters as Filters } from '../api/keys';

/** Operator, action and a time range; applying them starts the listing over at a new snapshot. */
export function AuditFilters({
  filters,
  onChange,
}: {
  filters: Filters;
  onChange: (filters: Filters) => void;
}) {
  return (
    <FilterForm
      label="Audit log filters"
      filters={filters}
      onChange={onChange}
      className="grid grid-cols-[repeat(auto-fill,minmax(13rem,1fr))] gap-3 border-b border-slate-200 p-4"
      actionsClassName="flex items-end gap-2"
    >
      {(draft, set, bind) => (
        <>
          <TextField label="Operator" {...bind('operator', { trim: true })} />
          <TextField label="Action" {...bind('action', { trim: true })} />
          <TextField
            label="From"
            type="datetime-local"
            value={isoToLocalInput(draft.from)}
            onChange={(event) => {
              set('from', localInputToIso(event.target.value) ?? '');
            }}
          />
          <TextField
            label="To"
            type="datetime-local"
            value={isoToLocalInput(draft.to)}
            onChange={(event) => {
              set('to', localInputToIso(event.target.value) ?? '');
            }}
          />
        </>
      )}
    </FilterForm>
  );
}
