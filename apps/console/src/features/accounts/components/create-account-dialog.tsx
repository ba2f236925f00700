import { zodResolver } from '@hookform/resolvers/zod';
import { METADATA_MAX_BYTES } from '@settlement/protocol';
import type { Account, CreateAccountRequest } from '@settlement/protocol';
import { clsx } from 'clsx';
import { useRef } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { useCreateAccountMutation } from '../api/create-account';
import {
  CreateAccountFieldsSchema,
  EMPTY_ACCOUNT_FIELDS,
  problemsOf,
} from '../model/create-account-fields';
import type { CreateAccountFields } from '../model/create-account-fields';
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
  const form = useForm({
    resolver: zodResolver(CreateAccountFieldsSchema),
    defaultValues: EMPTY_ACCOUNT_FIELDS,
  });
  const { isSubmitted } = form.formState;
  const mutation = useCreateAccountMutation();
  const inFlight = useRef(false);

  // The schema's messages as the operator types (the resolver's own run is asynchronous);
  // the name is only asked for once they try to create.
  const fields: CreateAccountFields = {
    ...EMPTY_ACCOUNT_FIELDS,
    ...useWatch({ control: form.control }),
  };
  const problems = problemsOf(fields);
  const isValid = Object.keys(problems).length === 0;
  const metadataBytes = checkMetadata(fields.metadata).bytes;

  // Reached through handleSubmit, which runs the resolver: `request` is the protocol's, parsed.
  const create = (request: CreateAccountRequest) => {
    // A ref guard: a second click before the next render must not create a second account.
    if (inFlight.current) return;
    inFlight.current = true;
    mutation.mutate(request, {
      onSuccess: (account) => {
        onCreated(account);
      },
      onSettled: () => {
        inFlight.current = false;
      },
    });
  };

  const isOverLimit = metadataBytes > METADATA_MAX_BYTES;
  return (
    <form
      onSubmit={(event) => {
        void form.handleSubmit(create)(event);
      }}
      className="space-y-4"
      noValidate
    >
      <TextField
        label="Name"
        {...form.register('name')}
        error={isSubmitted ? problems.name : null}
        required
        autoFocus
      />
      <TextField
        label="External id (optional)"
        hint="Your own reference, 1 to 128 characters, unique in the organization."
        {...form.register('externalId')}
        error={problems.externalId}
      />
      <TextAreaField
        label="Metadata (optional JSON object)"
        rows={6}
        spellCheck={false}
        placeholder={'{\n  "region": "EU"\n}'}
        {...form.register('metadata')}
        error={problems.metadata}
        aside={
          <span
            className={clsx(
              'text-xs tabular-nums',
              isOverLimit ? 'font-semibold text-red-700' : 'text-slate-600',
            )}
            aria-live="polite"
          >
            {metadataBytes.toLocaleString()} / {METADATA_MAX_BYTES.toLocaleString()} bytes
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
