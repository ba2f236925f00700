import { useState } from 'react';
import type { SubmitEvent } from 'react';
import type { PendingSignIn, SignInResult } from '@settlement/protocol';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { TextField } from '../../../components/ui/field';
import { isApiError } from '../../../lib/api-client';
import { useLoginMutation } from '../api/login';
import { pendingStepOf } from '../api/sign-in-result';
import { SignInStepForm } from './sign-in-step-form';

/** Password first; then, when the account needs it, the next step in place. */
export function SignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState<PendingSignIn | null>(null);
  const loginMutation = useLoginMutation();

  const handleResult = (result: SignInResult) => {
    const next = pendingStepOf(result);
    setPending(next);
    if (!next) onSignedIn();
  };

  const handleSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    loginMutation.mutate({ username: username.trim(), password }, { onSuccess: handleResult });
  };

  if (pending) {
    return (
      <SignInStepForm
        pending={pending}
        currentPassword={password}
        onResult={handleResult}
        onCancel={() => {
          setPending(null);
          setPassword('');
        }}
      />
    );
  }

  const error = loginMutation.error;
  return (
    <form onSubmit={handleSubmit} className="space-y-4" noValidate>
      <TextField
        label="Username"
        name="username"
        autoComplete="username"
        value={username}
        onChange={(event) => {
          setUsername(event.target.value);
        }}
        required
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => {
          setPassword(event.target.value);
        }}
        required
      />
      {error ? (
        isApiError(error) && error.status === 401 ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm font-medium text-red-800">
            The username or password is not correct.
          </p>
        ) : (
          <ErrorPanel error={error} title="Sign-in failed" />
        )
      ) : null}
      <Button
        type="submit"
        variant="primary"
        className="w-full"
        disabled={loginMutation.isPending || !username.trim() || !password}
      >
        {loginMutation.isPending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
