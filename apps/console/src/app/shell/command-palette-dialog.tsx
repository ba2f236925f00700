import { clsx } from 'clsx';
import { useId, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { Dialog } from '../../components/ui/dialog';
import { inputClass } from '../../components/ui/field';
import { cleanSupportQuery } from '../../features/support/api/support-search';
import { timelineHref } from '../../lib/timeline-href';
import type { PalettePage } from './command-palette';

type Choice = { key: string; label: string; to: string };

function choicesFor(text: string, pages: readonly PalettePage[]): Choice[] {
  const needle = text.trim().toLowerCase();
  const matching = pages
    .filter((page) => page.label.toLowerCase().includes(needle))
    .map((page) => ({ key: `page:${page.to}`, label: `Go to ${page.label}`, to: page.to }));
  const id = cleanSupportQuery(text);
  // Anything typed may be an id: its timeline is always offered, after the pages it names.
  const timeline = id
    ? [
        {
          key: 'timeline',
          label: `Open the timeline of ${id}`,
          to: timelineHref(id),
        },
      ]
    : [];
  return [...matching, ...timeline];
}

/** The palette's field and its choices (a combobox over a listbox); mounted only while open. */
function PaletteBody({
  pages,
  onChoose,
}: {
  pages: readonly PalettePage[];
  onChoose: (to: string) => void;
}) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const choices = choicesFor(text, pages);
  const current = Math.min(active, choices.length - 1);
  const optionId = (index: number) => `${listId}-option-${index}`;

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = choices.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (count === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + count) % count);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const choice = choices[current];
      if (choice) onChoose(choice.to);
    }
  };

  return (
    <div className="space-y-2">
      <input
        role="combobox"
        aria-label="Page or id"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={current >= 0 ? optionId(current) : undefined}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
        }}
        onKeyDown={handleKeyDown}
        spellCheck={false}
        autoComplete="off"
        placeholder="Wallets, audit… or paste a correlationId, requestId, tx hash"
        className={clsx(inputClass, 'font-mono')}
      />
      <ul id={listId} role="listbox" aria-label="Choices" className="max-h-80 overflow-y-auto">
        {choices.map((choice, index) => (
          // The field keeps focus; the listbox is driven through aria-activedescendant.
          <li
            key={choice.key}
            id={optionId(index)}
            role="option"
            aria-selected={index === current}
            onMouseMove={() => {
              setActive(index);
            }}
            onClick={() => {
              onChoose(choice.to);
            }}
            className={clsx(
              'cursor-pointer truncate rounded px-3 py-2 text-sm',
              index === current ? 'bg-indigo-700 text-white' : 'text-slate-800',
            )}
          >
            {choice.label}
          </li>
        ))}
      </ul>
      {choices.length === 0 ? (
        <p className="text-sm text-slate-600">No page has that name.</p>
      ) : null}
    </div>
  );
}

/**
 * The palette itself, its own chunk: the dialog library and the id clean-up it shares with
 * Support load on the first open, not with every page.
 */
export function CommandPaletteDialog({
  isOpen,
  onOpenChange,
  pages,
  onChoose,
}: {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  pages: readonly PalettePage[];
  onChoose: (to: string) => void;
}) {
  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title="Go to"
      description="Type a page name, or paste any id to open its timeline."
    >
      {isOpen ? <PaletteBody pages={pages} onChoose={onChoose} /> : null}
    </Dialog>
  );
}
