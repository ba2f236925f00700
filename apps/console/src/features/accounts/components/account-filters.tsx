import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import type { AccountFilters as Filters } from '../api/keys';

export function AccountFilters({
  filters,
  onChange,
}: {
  filters: Filters;
  onChange: (filters: Filters) => void;
}) {
  const [search, setSearch] = useState(filters.search ?? '');
  const [externalId, setExternalId] = useState(filters.externalId ?? '');

  const handleSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    onChange({ search: search.trim(), externalId: externalId.trim() });
  };

  return (
    <form
      role="search"
      aria-label="Filter accounts"
      onSubmit={handleSubmit}
      className="flex flex-wrap items-end gap-3 border-b border-slate-200 p-4"
    >
      <div className="w-64">
        <TextField
          label="Search"
          type="search"
          placeholder="Name or id"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
          }}
        />
      </div>
      <div className="w-56">
        <TextField
          label="External id"
          value={externalId}
          onChange={(event) => {
            setExternalId(event.target.value);
          }}
        />
      </div>
      <Button type="submit">Apply</Button>
      {filters.search || filters.externalId ? (
        <Button
          variant="ghost"
          onClick={() => {
            setSearch('');
            setExternalId('');
            onChange({});
          }}
        >
          Clear
        </Button>
      ) : null}
    </form>
  );
}
