import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { ErrorPanel } from '../../components/ui/error-panel';
import { isApiError } from '../../lib/api-client';

export function RouteError() {
  const error = useRouteError();
  const isNotFound = isRouteErrorResponse(error) && error.status === 404;
  // A page whose code did not come in time (a hung console server): loading it again may work.
  const canReload = isApiError(error) && error.retryable;
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="mb-4 text-lg font-semibold">
        {isNotFound ? 'Page not found' : 'This page failed'}
      </h1>
      {isNotFound ? null : (
        <ErrorPanel
          error={error}
          {...(canReload
            ? {
                onRetry: () => {
                  window.location.reload();
                },
              }
            : {})}
        />
      )}
      <Link to="/" className="mt-4 inline-block text-sm font-medium text-indigo-700 underline">
        Back to the overview
      </Link>
    </main>
  );
}
