import { useState } from 'react';
import type { ReactNode, SubmitEvent } from 'react';
import type { PendingSignIn, SignInResult } from '@settlement/protocol';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { TextField } from '../../../components/ui/field';
import {
  useChangePasswordMutation,
  useEnrollAtSignInMutation,
  usePasskeySignInMutation,
} from '../api/sign-in-steps';

type StepProps = {
  pending: PendingSignIn;
  /** The password just entered (a one-time password is replaced with it as the current one). */
  currentPassword: string;
  onResult: (result: SignInResult) => void;
  onCancel: () => void;
};

/** The step after the password: replace a one-time password, use or create a passkey. */
export function SignInStepForm({ pending, currentPassword, onResult, onCancel }: StepProps) {
  const cancel = (
    <Button variant="ghost" className="w-full" onClick={onCancel}>
      Use another account
    </Button>
  );
  if (pending.signInStep === 'change-password') {
    return (
      <NewPasswordStep currentPassword={currentPassword} onResult={onResult} cancel={cancel} />
    );
  }
  if (pending.signInStep === 'passkey') return <PasskeyStep onResult={onResult} cancel={cancel} />;
  return <EnrollStep onResult={onResult} cancel={cancel} />;
}

function PasskeyStep({
  onResult,
  cancel,
}: {
  onResult: (result: SignInResult) => void;
  cancel: ReactNode;
}) {
  const mutation = usePasskeySignInMutation();
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        Your password is correct. Confirm it is you with your passkey.
      </p>
      {mutation.error ? (
        <ErrorPanel error={mutation.error} title="The passkey was not accepted" />
      ) : null}
      <Button
        variant="primary"
        className="w-full"
        disabled={mutation.isPending}
        onClick={() => {
          mutation.mutate(undefined, { onSuccess: onResult });
        }}
      >
        {mutation.isPending ? 'Waiting for your passkey…' : 'Use your passkey'}
      </Button>
      {cancel}
    </div>
  );
}

function EnrollStep({
  onResult,
  cancel,
}: {
  onResult: (result: SignInResult) => void;
  cancel: ReactNode;
}) {
  const [name, setName] = useState('This device');
  const mutation = useEnrollAtSignInMutation();
  const handleSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    mutation.mutate(name.trim(), {
      onSuccess: (enrolled) => {
        onResult(enrolled.signIn);
      },
    });
  };
  return (
    <form onSubmit={handleSubmit} className="space-y-4" noValidate>
      <p className="text-sm text-slate-700">
        This organization requires a passkey. Create one on this device to finish signing in.
      </p>
      <TextField
        label="Passkey name"
        name="passkeyName"
        value={name}
        maxLength={64}
        onChange={(event) => {
          setName(event.target.value);
        }}
        required
      />
      {mutation.error ? (
        <ErrorPanel error={mutation.error} title="The passkey was not created" />
      ) : null}
      <Button
        type="submit"
        variant="primary"
        className="w-full"
        disabled={mutation.isPending || !name.trim()}
      >
        {mutation.isPending ? 'Waiting for your device…' : 'Create passkey'}
      </Button>
      {cancel}
    </form>
  );
}

function NewPasswordStep({
  currentPassword,
  onResult,
  cancel,
}: {
  currentPassword: string;
  onResult: (result: SignInResult) => void;
  cancel: ReactNode;
}) {
  const [newPassword, setNewPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const mutation = useChangePasswordMutation();
  const mismatch = repeat !== '' && repeat !== newPassword ? 'The passwords differ.' : null;
  const handleSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    mutation.mutate({ currentPassword, newPassword }, { onSuccess: onResult });
  };
  return (
    <form onSubmit={handleSubmit} className="space-y-4" noValidate>
      <p className="text-sm text-slate-700">
        You signed in with a one-time password. Choose your own: at least 12 characters, hard to
        guess (a passphrase of unrelated words works well).
      </p>
      <TextField
        label="New password"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        value={newPassword}
        onChange={(event) => {
          setNewPassword(event.target.value);
        }}
        required
      />
      <TextField
        label="Repeat the new password"
        name="repeatPassword"
        type="password"
        autoComplete="new-password"
        value={repeat}
        error={mismatch}
        onChange={(event) => {
          setRepeat(event.target.value);
        }}
        required
      />
      {mutation.error ? (
        <ErrorPanel error={mutation.error} title="The password was not changed" />
      ) : null}
      <Button
        type="submit"
        variant="primary"
        className="w-full"
        disabled={mutation.isPending || newPassword.length < 12 || repeat !== newPassword}
      >
        {mutation.isPending ? 'Saving…' : 'Set password and continue'}
      </Button>
      {cancel}
    </form>
  );
}
