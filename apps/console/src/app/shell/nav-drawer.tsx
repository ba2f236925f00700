import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { focusRing } from '../../components/ui/button';

/**
 * The navigation below the lg breakpoint: the menu button and a modal drawer from the left
 * (Radix: focus trap, Escape and outside tap close it, focus returns to the menu button).
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
  return (
    <RadixDialog.Root open={isOpen} onOpenChange={onOpenChange}>
      {/* A Radix Trigger, so closing the drawer gives focus back to it. */}
      <RadixDialog.Trigger
        aria-label="Open menu"
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
      </RadixDialog.Trigger>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-950/50 lg:hidden" />
        <RadixDialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-slate-900 text-slate-100 shadow-xl focus:outline-none lg:hidden"
        >
          <div className="flex items-center justify-between px-5 pt-4 pb-3">
            <RadixDialog.Title className="text-sm font-semibold text-white">Menu</RadixDialog.Title>
            <RadixDialog.Close
              aria-label="Close menu"
              className={`inline-flex size-11 items-center justify-center rounded-md text-slate-200 hover:bg-slate-800 ${focusRing}`}
            >
              <span aria-hidden="true" className="text-2xl leading-none">
                ×
              </span>
            </RadixDialog.Close>
          </div>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
