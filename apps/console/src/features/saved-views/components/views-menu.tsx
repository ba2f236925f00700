import type { SavedView } from '@settlement/protocol';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { SubmitEvent } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { errorSummary } from '../../../components/ui/error-panel';
import { inputClass } from '../../../components/ui/field';
import type { Filters } from '../../../lib/paging';
import { useDeleteViewMutation } from '../api/delete-view';
import type { SavedViewSubject } from '../api/keys';
import { savedViewListQuery } from '../api/list-saved-views';
import { useSaveViewMutation } from '../api/save-view';

/** The page's filters a view holds: only the list's own names, empty values left out. */
export function viewFilters<K extends string>(
  names: readonly K[],
  source: Partial<Record<string, string>>,
): Filters<K> {
  const result: Filters<K> = {};
  for (const name of names) {
    const value = source[name];
    if (value) result[name] = value;
  }
  return result;
}

function isSameFilters(a: Partial<Record<string, string>>, b: Partial<Record<string, string>>) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => (a[key] ?? '') === (b[key] ?? ''));
}

function ErrorLine({ error }: { error: unknown }) {
  const { title, message } = errorSummary(error);
  return (
    <p role="alert" className="text-xs font-medium text-red-700">
      {message ? `${title} ${message}` : title}
    </p>
  );
}

/**
 * "Views" on a list page: apply a saved filter set (the operator's own or one shared with the
 * organization), save the current filters under a name, delete a view one may delete.
 */
export function ViewsMenu<K extends string>({
  subject,
  names,
  filters,
  onApply,
  operator,
}: {
  subject: SavedViewSubject;
  names: readonly K[];
  filters: Filters<K>;
  onApply: (next: Filters<K>) => void;
  operator: { username: string; isAdmin: boolean };
}) {
  const [isOpen, setIsOpen] = useState(false);
  const panelId = useId();
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
    <div className="relative">
      <Button
        aria-expanded={isOpen}
        aria-controls={isOpen ? panelId : undefined}
        onClick={() => {
          setIsOpen((open) => !open);
        }}
      >
        Views
      </Button>
      {isOpen && (
        <ViewsPanel
          id={panelId}
          subject={subject}
          names={names}
          filters={filters}
          operator={operator}
          onApply={(next) => {
            onApply(next);
            setIsOpen(false);
          }}
        />
      )}
    </div>
  );
}

function ViewsPanel<K extends string>({
  id,
  subject,
  names,
  filters,
  onApply,
  operator,
}: {
  id: string;
  subject: SavedViewSubject;
  names: readonly K[];
  filters: Filters<K>;
  onApply: (next: Filters<K>) => void;
  operator: { username: string; isAdmin: boolean };
}) {
  const query = useQuery(savedViewListQuery(subject));
  const save = useSaveViewMutation();
  const remove = useDeleteViewMutation();
  const [name, setName] = useState('');
  const [isShared, setIsShared] = useState(false);
  const nameId = useId();
  const current = viewFilters(names, filters);
  const canDelete = (view: SavedView) =>
    view.owner === operator.username || (view.visibility === 'organization' && operator.isAdmin);

  const handleSave = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const definedFilters: Record<string, string> = {};
    for (const [key, value] of Object.entries(current)) {
      if (typeof value === 'string') definedFilters[key] = value;
    }
    save.mutate(
      {
        name: name.trim(),
        subject,
        filters: definedFilters,
        visibility: isShared ? 'organization' : 'personal',
      },
      {
        onSuccess: () => {
          setName('');
        },
      },
    );
  };

  return (
    <section
      id={id}
      aria-label="Saved views"
      className="absolute right-0 top-full z-20 mt-2 w-80 space-y-3 rounded-lg border border-slate-200 bg-white p-3 text-sm text-slate-800 shadow-lg"
    >
      {query.isPending ? (
        <p className="text-slate-600">Loading views…</p>
      ) : query.isError ? (
        <ErrorLine error={query.error} />
      ) : query.data.items.length === 0 ? (
        <p className="text-slate-600">No saved views yet.</p>
      ) : (
        <ul className="space-y-1" aria-label="Views">
          {query.data.items.map((view) => (
            <li key={view.id} className="flex items-center gap-2">
              <Button
                variant="ghost"
                size="sm"
                className="min-w-0 flex-1 justify-start truncate"
                aria-current={isSameFilters(view.filters, current) ? 'true' : undefined}
                onClick={() => {
                  onApply(viewFilters(names, view.filters));
                }}
              >
                {view.name}
              </Button>
              {view.visibility === 'organization' && (
                <Badge tone="info">
                  {view.owner === operator.username ? 'Shared' : `Shared by ${view.owner}`}
                </Badge>
              )}
              {canDelete(view) && (
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Delete view ${view.name}`}
                  disabled={remove.isPending}
                  onClick={() => {
                    remove.mutate(view);
                  }}
                >
                  Delete
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {remove.isError && <ErrorLine error={remove.error} />}
      <form onSubmit={handleSave} className="space-y-2 border-t border-slate-200 pt-3">
        <label htmlFor={nameId} className="block text-sm font-medium">
          Save the current filters as
        </label>
        <input
          id={nameId}
          className={inputClass}
          value={name}
          maxLength={80}
          placeholder="View name"
          onChange={(event) => {
            setName(event.target.value);
          }}
        />
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={isShared}
            onChange={(event) => {
              setIsShared(event.target.checked);
            }}
          />
          Share with the organization
        </label>
        {save.isError && <ErrorLine error={save.error} />}
        <Button type="submit" variant="primary" size="sm" disabled={!name.trim() || save.isPending}>
          Save view
        </Button>
      </form>
    </section>
  );
}
