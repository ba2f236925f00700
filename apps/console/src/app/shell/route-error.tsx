import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { ErrorPanel } from '../../components/ui/error-panel';

export function RouteError() {
  const error = useRouteError();
  const isNotFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="mb-4 text-lg font-semibold">
        {isNotFound ? 'Page not found' : 'This page failed'}
      </h1>
      {isNotFound ? null : <ErrorPanel error={error} />}
      <Link to="/" className="mt-4 inline-block text-sm font-medium text-indigo-700 underline">
        Back to the overview
      </Link>
    </main>
  );
}
