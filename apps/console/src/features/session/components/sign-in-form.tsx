import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { TextField } from '../../../components/ui/field';
import { isApiError } from '../../../lib/api-client';
import { useLoginMutation } from '../api/login';

export function SignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const loginMutation = useLoginMutation();

  const handleSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    loginMutation.mutate({ username: username.trim(), password }, { onSuccess: onSignedIn });
  };

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
