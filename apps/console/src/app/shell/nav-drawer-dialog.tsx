import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode, RefObject } from 'react';
import { focusRing } from '../../components/ui/button';

/**
 * The drawer itself (Radix: focus trap, Escape and outside tap close it). Its own chunk: the
 * dialog library loads on the first tap of the menu button, not with every page on a desktop.
 */
export function NavDrawerDialog({
  isOpen,
  onOpenChange,
  returnFocusTo,
  children,
}: {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  returnFocusTo: RefObject<HTMLButtonElement | null>;
  children: ReactNode;
}) {
  return (
    <RadixDialog.Root open={isOpen} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-950/50 lg:hidden" />
        <RadixDialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-slate-900 text-slate-100 shadow-xl focus:outline-none lg:hidden"
          onCloseAutoFocus={(event) => {
            // Radix returns focus only to its own Trigger; the menu button is a plain button.
            const button = returnFocusTo.current;
            if (!button?.isConnected) return;
            event.preventDefault();
            button.focus();
          }}
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
