import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import type { ErrorAdvice } from '../../../features/transactions/model/withdrawal-errors';
import { isApiError } from '../../../lib/api-client';

/**
 * Why the send failed: the code's meaning, the service's own words when they say more, the
 * console's advice, and the request id for support.
 */
export function SendErrorAlert({
  advice,
  error,
  onStartOver,
}: {
  advice: ErrorAdvice;
  error: unknown;
  onStartOver: () => void;
}) {
  return (
    <div
      role="alert"
      className="mt-4 rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900"
    >
      <p className="font-semibold">{advice.title}</p>
      {advice.detail ? (
        <p className="mt-1">
          The service says: <q>{advice.detail}</q>
        </p>
      ) : null}
      <p className="mt-1">{advice.advice}</p>
      {isApiError(error) && error.requestId ? (
        <p className="mt-2 text-xs">
          Request id <code className="font-mono">{error.requestId}</code> ·{' '}
          <Link to={`/support?q=${encodeURIComponent(error.requestId)}`} className="underline">
            Look up in Support
          </Link>
        </p>
      ) : null}
      {!advice.canRetry && !advice.mustEdit ? (
        <Button size="sm" className="mt-3" onClick={onStartOver}>
          Start over
        </Button>
      ) : null}
    </div>
  );
}

/** An unsent draft that came back after the operator was signed out: say it was not sent. */
export function RestoredDraftNotice({ onDiscard }: { onDiscard: () => void }) {
  return (
    <div
      role="note"
      aria-label="Unsent draft"
      className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <p className="font-semibold">This withdrawal was NOT sent.</p>
      <p className="mt-1">
        It is the draft you were editing when you were signed out or left this page. Nothing was
        sent: check it, then review and send it, or discard it.
      </p>
      <Button size="sm" className="mt-2" onClick={onDiscard}>
        Discard draft
      </Button>
    </div>
  );
}
