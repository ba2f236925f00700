import { Link } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { Button } from './button';
import { CopyableId } from './copy-button';

/** Human text for any error: the interface's code when there is one. */
export function errorSummary(error: unknown): { title: string; message: string | null } {
  if (error instanceof ApiError) {
    const title = error.description;
    return { title, message: error.message && error.message !== title ? error.message : null };
  }
  if (error instanceof Error) return { title: 'Something went wrong.', message: error.message };
  return { title: 'Something went wrong.', message: null };
}

/**
 * Whether doing the same thing again may succeed: the envelope's `retryable` for an API error
 * (a 404, 403 or 422 never changes by asking again); anything else (a response that did not
 * parse, a render error) may be transient.
 */
export function isRetryable(error: unknown): boolean {
  return error instanceof ApiError ? error.retryable : true;
}

/**
 * An API error: what it means, the code, and the requestId to hand to support. "Try again" is
 * offered only when the error is retryable.
 */
export function ErrorPanel({
  error,
  onRetry,
  title,
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
}) {
  const summary = errorSummary(error);
  const apiError = error instanceof ApiError ? error : null;
  return (
    <div
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900"
    >
      <p className="font-semibold">{title ?? summary.title}</p>
      {title ? <p className="mt-1">{summary.title}</p> : null}
      {summary.message ? <p className="mt-1 text-red-800">{summary.message}</p> : null}
      {apiError ? (
        <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
          <dt className="font-medium">Code</dt>
          <dd>
            <code className="font-mono">{apiError.code}</code>
            {apiError.retryable ? ' · safe to retry' : ''}
          </dd>
          {apiError.requestId ? (
            <>
              <dt className="font-medium">Request id</dt>
              <dd className="flex flex-wrap items-center gap-2">
                <CopyableId value={apiError.requestId} label="request id" />
                <Link
                  to={`/support?q=${encodeURIComponent(apiError.requestId)}`}
                  className="font-medium text-red-900 underline"
                >
                  Look up in Support
                </Link>
              </dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {onRetry && isRetryable(error) ? (
        <Button size="sm" className="mt-3" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}
