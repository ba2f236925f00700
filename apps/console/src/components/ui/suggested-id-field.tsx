import { useId } from 'react';
import type { ComponentProps } from 'react';
import { TextField } from './field';

/** Something a filter can name by id, with the name people know it by. */
export type IdSuggestion = { id: string; name: string };

/**
 * What a typed id field means: a known id as it is; otherwise the one suggestion whose name
 * contains the text (any case), so "payroll" finds the Payroll wallet even where the browser's
 * list does not search names; otherwise the text as typed (an id from elsewhere).
 */
export function resolveId(text: string, suggestions: readonly IdSuggestion[]): string {
  if (!text || suggestions.some((s) => s.id === text)) return text;
  const needle = text.toLowerCase();
  const matches = suggestions.filter((s) => s.name.toLowerCase().includes(needle));
  return matches.length === 1 && matches[0] ? matches[0].id : text;
}

/**
 * An id field that offers the known ids by name as the operator types (a datalist: the
 * browser matches the typed text against the name and the id), and names the chosen id beside
 * the label. An id pasted from elsewhere, or one not in the list, is kept as typed: support
 * works from ids, treasury from names.
 */
export function SuggestedIdField({
  label,
  suggestions,
  value,
  ...input
}: {
  label: string;
  suggestions: readonly IdSuggestion[];
  value: string;
} & Omit<ComponentProps<'input'>, 'value' | 'list'>) {
  const listId = useId();
  const nameId = useId();
  const chosen = value ? suggestions.find((s) => s.id === value) : undefined;
  return (
    <>
      <TextField
        label={label}
        value={value}
        list={listId}
        autoComplete="off"
        spellCheck={false}
        placeholder="Name or id"
        aria-describedby={chosen ? nameId : undefined}
        aside={
          chosen ? (
            <span
              id={nameId}
              className="min-w-0 truncate text-xs text-slate-600"
              title={chosen.name}
            >
              {chosen.name}
            </span>
          ) : null
        }
        {...input}
      />
      <datalist id={listId}>
        {suggestions.map((s) => (
          <option key={s.id} value={s.id} label={s.name} />
        ))}
      </datalist>
    </>
  );
}
