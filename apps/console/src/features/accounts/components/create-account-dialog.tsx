import { METADATA_MAX_BYTES } from '@settlement/protocol';
import type { Account } from '@settlement/protocol';
import { clsx } from 'clsx';
import { useRef, useState } from 'react';
import type { SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { useCreateAccountMutation } from '../api/create-account';
import { checkMetadata } from '../model/metadata';

export function CreateAccountDialog({
  isOpen,
  onOpenChange,
  onCreated,
}: {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  onCreated: (account: Account) => void;
}) {
  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title="Create account"
      description="A ledger account groups wallets and activity under one business identity."
    >
      {isOpen ? (
        <CreateAccountForm
          onCancel={() => {
            onOpenChange(false);
          }}
          onCreated={onCreated}
        />
      ) : null}
    </Dialog>
  );
}

export function CreateAccountForm({
  onCancel,
  onCreated,
}: {
  onCancel: () => void;
  onCreated: (account: Account) => void;
}) {
  const [name, setName] = useState('');
  const [externalId, setExternalId] = useState('');
  const [metadataText, setMetadataText] = useState('');
  const [isSubmitted, setIsSubmitted] = useState(false);
  const mutation = useCreateAccountMutation();
  const inFlight = useRef(false);

  const metadata = checkMetadata(metadataText);
  const nameProblem =
    name.trim() === ''
      ? 'Enter a name.'
      : name.trim().length > 200
        ? 'At most 200 characters.'
        : null;
  const externalIdProblem =
    externalId.length > 128 ? `At most 128 characters (this has ${externalId.length}).` : null;
  const isValid = !nameProblem && !externalIdProblem && metadata.isValid;

  const handleSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    setIsSubmitted(true);
    // A ref guard: a second click before the next render must not create a second account.
    if (!isValid || inFlight.current) return;
    inFlight.current = true;
    mutation.mutate(
      {
        name: name.trim(),
        ...(externalId ? { externalId } : {}),
        ...(metadata.value ? { metadata: metadata.value } : {}),
      },
      {
        onSuccess: (account) => {
          onCreated(account);
        },
        onSettled: () => {
          inFlight.current = false;
        },
      },
    );
  };

  const isOverLimit = metadata.bytes > METADATA_MAX_BYTES;
  return (
    <form onSubmit={handleSubmit} className="space-y-4" noValidate>
      <TextField
        label="Name"
        value={name}
        onChange={(event) => {
          setName(event.target.value);
        }}
        error={isSubmitted ? nameProblem : null}
        required
        autoFocus
      />
      <TextField
        label="External id (optional)"
        hint="Your own reference, 1 to 128 characters, unique in the organization."
        value={externalId}
        onChange={(event) => {
          setExternalId(event.target.value);
        }}
        error={externalIdProblem}
      />
      <TextAreaField
        label="Metadata (optional JSON object)"
        rows={6}
        spellCheck={false}
        placeholder={'{\n  "region": "EU"\n}'}
        value={metadataText}
        onChange={(event) => {
          setMetadataText(event.target.value);
        }}
        error={metadata.isValid ? null : metadata.problem}
        aside={
          <span
            className={clsx(
              'text-xs tabular-nums',
              isOverLimit ? 'font-semibold text-red-700' : 'text-slate-600',
            )}
            aria-live="polite"
          >
            {metadata.bytes.toLocaleString()} / {METADATA_MAX_BYTES.toLocaleString()} bytes
          </span>
        }
      />
      {mutation.error ? (
        <ErrorPanel error={mutation.error} title="The account was not created" />
      ) : null}
      <div className="flex justify-end gap-2">
        <Button onClick={onCancel}>Cancel</Button>
        <Button
          type="submit"
          variant="primary"
          disabled={mutation.isPending || (isSubmitted && !isValid)}
        >
          {mutation.isPending ? 'Creating…' : 'Create account'}
        </Button>
      </div>
    </form>
  );
}
