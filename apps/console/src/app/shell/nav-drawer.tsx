import { Suspense, lazy, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { focusRing } from '../../components/ui/button';

const NavDrawerDialog = lazy(() =>
  import('./nav-drawer-dialog').then((m) => ({ default: m.NavDrawerDialog })),
);

/**
 * The navigation below the lg breakpoint: the menu button and a modal drawer from the left;
 * closing it gives focus back to the menu button.
 */
export function NavDrawer({
  isOpen,
  onOpenChange,
  children,
}: {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  children: ReactNode;
}) {
  const buttonRef = useRef<HTMLButtonElement>(null);
  // Mounted from the first open on, so the closing drawer can still hand focus back.
  const [hasOpened, setHasOpened] = useState(false);
  if (isOpen && !hasOpened) setHasOpened(true);
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={isOpen}
        onClick={() => {
          onOpenChange(true);
        }}
        className={`inline-flex size-11 shrink-0 items-center justify-center rounded-md text-slate-800 hover:bg-slate-100 lg:hidden ${focusRing}`}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none">
          <path
            d="M4 6h16M4 12h16M4 18h16"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
        </svg>
      </button>
      {hasOpened ? (
        <Suspense fallback={null}>
          <NavDrawerDialog isOpen={isOpen} onOpenChange={onOpenChange} returnFocusTo={buttonRef}>
            {children}
          </NavDrawerDialog>
        </Suspense>
      ) : null}
    </>
  );
}
