import { useQuery } from '@tanstack/react-query';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { meQuery } from '../../features/session/api/me';
import { SignInForm } from '../../features/session/components/sign-in-form';

/** Only same-app paths: never an absolute or protocol-relative URL. */
function safeReturnTo(value: string | null): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/sign-in')) return '/';
  return value;
}

export function SignInPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const returnTo = safeReturnTo(searchParams.get('returnTo'));
  const { data: session } = useQuery(meQuery());
  const wasRedirected = searchParams.has('returnTo');

  if (session) return <Navigate to={returnTo} replace />;
  return (
    <main className="flex min-h-full items-center justify-center bg-slate-100 p-6">
      <div className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
        <p className="text-xs font-semibold tracking-wider text-indigo-700 uppercase">
          Settlement Console
        </p>
        <h1 className="mt-1 mb-2 text-xl font-semibold text-slate-900">Sign in</h1>
        {wasRedirected ? (
          <p role="status" className="mb-4 text-sm text-slate-600">
            Your session ended or you are not signed in. Sign in to continue where you were.
          </p>
        ) : (
          <p className="mb-4 text-sm text-slate-600">Use your operator account.</p>
        )}
        <SignInForm
          onSignedIn={() => {
            void navigate(returnTo, { replace: true });
          }}
        />
      </div>
    </main>
  );
}
