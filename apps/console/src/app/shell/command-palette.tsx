import { Suspense, lazy, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';

export type PalettePage = { to: string; label: string };

const CommandPaletteDialog = lazy(() =>
  import('./command-palette-dialog').then((m) => ({ default: m.CommandPaletteDialog })),
);

const isPaletteShortcut = (event: globalThis.KeyboardEvent) =>
  (event.ctrlKey || event.metaKey) &&
  !event.altKey &&
  !event.shiftKey &&
  event.key.toLowerCase() === 'k';

/**
 * Ctrl/Cmd+K (or its button): go to any page, or paste any id and land on its timeline. A
 * modal dialog; closing it returns focus to where it was opened from.
 */
export function CommandPalette({ pages }: { pages: readonly PalettePage[] }) {
  const [isOpen, setIsOpen] = useState(false);
  // Mounted from the first open on (and kept, so Radix can hand focus back when it closes).
  const [hasOpened, setHasOpened] = useState(false);
  const navigate = useNavigate();
  if (isOpen && !hasOpened) setHasOpened(true);

  useEffect(() => {
    const handleKeyDown = (event: globalThis.KeyboardEvent) => {
      if (!isPaletteShortcut(event)) return;
      // The browser's own Ctrl+K focuses its search bar.
      event.preventDefault();
      setIsOpen((open) => !open);
    };
    window.addEventListener('keydown', handleKeyDown);
    return () => {
      window.removeEventListener('keydown', handleKeyDown);
    };
  }, []);

  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        aria-keyshortcuts="Control+K Meta+K"
        onClick={() => {
          setIsOpen(true);
        }}
      >
        Go to…{' '}
        {/* The shortcut is a keyboard's: no hint on touch screens or phone-sized windows. */}
        <kbd className="hidden rounded border border-slate-300 px-1 text-xs sm:pointer-fine:inline">
          Ctrl K
        </kbd>
      </Button>
      {hasOpened ? (
        <Suspense fallback={null}>
          <CommandPaletteDialog
            isOpen={isOpen}
            onOpenChange={setIsOpen}
            pages={pages}
            onChoose={(to) => {
              setIsOpen(false);
              void navigate(to);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
