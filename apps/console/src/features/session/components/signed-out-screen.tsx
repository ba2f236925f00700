import { clsx } from 'clsx';
import { useLayoutEffect, useRef } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import type { SessionEndReason } from '../session-end';

const explanation: Record<SessionEndReason, string> = {
  'signed-out-elsewhere': 'You signed out in another tab of this console.',
  ended: 'Your session ended: it expired, was revoked, or you signed out elsewhere.',
};

/**
 * Shown in place of the console when its session ended while the page was open. Nothing is
 * sent from a signed-out tab; signing in again comes back to `returnTo`.
 */
export function SignedOutScreen({
  reason,
  returnTo,
}: {
  reason: SessionEndReason;
  returnTo: string;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The page under the operator's focus just went away: focus lands on what replaced it, in
  // the same commit that shows it (a passive effect left focus on <body> until a later task,
  // which a screen reader could announce, and a busy test runner caught).
  useLayoutEffect(() => {
    headingRef.current?.focus();
  }, []);
  return (
    <main className="flex min-h-full items-center justify-center bg-slate-100 p-6">
      <div className="w-full max-w-md rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
        <p className="text-xs font-semibold tracking-wider text-indigo-700 uppercase">
          Settlement Console
        </p>
        <h1
          ref={headingRef}
          tabIndex={-1}
          className="mt-1 mb-2 text-xl font-semibold text-slate-900 focus:outline-none"
        >
          Signed out
        </h1>
        <p role="alert" className="text-sm text-slate-700">
          {explanation[reason]}
        </p>
        <p className="mt-2 text-sm text-slate-700">
          Nothing more is sent from this tab until you sign in again; you come back to this page.
        </p>
        <Link
          to={`/sign-in?returnTo=${encodeURIComponent(returnTo)}`}
          className={clsx(buttonClass('primary'), 'mt-6 w-full')}
        >
          Sign in again
        </Link>
      </div>
    </main>
  );
}
