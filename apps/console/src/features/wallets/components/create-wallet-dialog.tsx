import type { Wallet } from '@settlement/protocol';
import { useRef, useState } from 'react';
import type { SubmitEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ChainBadge, isTestnet } from '../../../components/ui/chain-badge';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorPanel, isRetryable } from '../../../components/ui/error-panel';
import { SelectField, TextField } from '../../../components/ui/field';
import type { Option } from '../../../components/ui/field';
import { isApiError } from '../../../lib/api-client';
import { newOperationId } from '../../../lib/operation-id';
import { useCreateWalletMutation } from '../api/create-wallet';

type Readiness = { isReady: boolean; reason: string | null };

export type CreateWalletProps = {
  accounts: Option[];
  isLoadingAccounts: boolean;
  onAccountSearch: (text: string) => void;
  defaultAccountId?: string | undefined;
  chains: Option[];
  /** The chain proposed until the operator picks one (the app's one default rule). */
  defaultChain: string | null;
  /** Null while the MPC status loads. */
  readinessOf: (chain: string) => Readiness | null;
  onCreated: (wallet: Wallet) => void;
};

export function CreateWalletDialog({
  isOpen,
  onOpenChange,
  ...props
}: CreateWalletProps & { isOpen: boolean; onOpenChange: (isOpen: boolean) => void }) {
  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title="Create wallet"
      description="A wallet is a blockchain address of one account on one chain."
    >
      {isOpen ? (
        <CreateWalletForm
          {...props}
          onCancel={() => {
            onOpenChange(false);
          }}
        />
      ) : null}
    </Dialog>
  );
}

export function CreateWalletForm({
  accounts,
  isLoadingAccounts,
  onAccountSearch,
  defaultAccountId,
  chains,
  defaultChain,
  readinessOf,
  onCreated,
  onCancel,
}: CreateWalletProps & { onCancel: () => void }) {
  // One operation id per dialog: retries and double clicks reuse it, so one wallet at most.
  const [operationId, setOperationId] = useState(newOperationId);
  const [accountId, setAccountId] = useState(defaultAccountId ?? '');
  const [chain, setChain] = useState('');
  const [accountSearch, setAccountSearch] = useState('');
  const mutation = useCreateWalletMutation();
  const inFlight = useRef(false);

  const selectedChain = chain || defaultChain || (chains[0]?.value ?? '');
  const readiness = selectedChain ? readinessOf(selectedChain) : null;
  const isReady = readiness?.isReady ?? false;
  const accountOptions =
    defaultAccountId && !accounts.some((a) => a.value === defaultAccountId)
      ? [{ value: defaultAccountId, label: defaultAccountId }, ...accounts]
      : accounts;

  // After a definite refusal nothing was created, so a changed request may take a new id.
  const handleRequestChange = () => {
    if (isApiError(mutation.error) && !mutation.error.retryable) {
      setOperationId(newOperationId());
      mutation.reset();
    }
  };

  const handleSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    if (!isReady || !accountId || !selectedChain || inFlight.current) return;
    inFlight.current = true;
    mutation.mutate(
      { request: { accountId, chain: selectedChain }, operationId },
      {
        onSuccess: (wallet) => {
          onCreated(wallet);
        },
        onSettled: () => {
          inFlight.current = false;
        },
      },
    );
  };

  return (
    <form onSubmit={handleSubmit} className="space-y-4" noValidate>
      <TextField
        label="Find account"
        type="search"
        placeholder="Name or id"
        value={accountSearch}
        onChange={(event) => {
          setAccountSearch(event.target.value);
          onAccountSearch(event.target.value);
        }}
      />
      <SelectField
        label="Account"
        value={accountId}
        onChange={(event) => {
          setAccountId(event.target.value);
          handleRequestChange();
        }}
        options={[
          { value: '', label: isLoadingAccounts ? 'Loading accounts…' : 'Choose an account' },
          ...accountOptions,
        ]}
        required
      />
      <SelectField
        label="Chain"
        value={selectedChain}
        onChange={(event) => {
          setChain(event.target.value);
          handleRequestChange();
        }}
        options={chains.length ? chains : [{ value: '', label: 'No chain is enabled' }]}
        hint="Chains enabled for this organization in the asset catalog."
        required
      />
      {isTestnet(selectedChain) ? (
        <p className="flex items-center gap-2 text-sm text-slate-700">
          <ChainBadge chain={selectedChain} /> Assets on this chain are for testing and have no
          value.
        </p>
      ) : null}
      {readiness === null ? (
        <p role="status" className="text-sm text-slate-600">
          Checking MPC readiness…
        </p>
      ) : !readiness.isReady ? (
        <div
          role="note"
          className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
        >
          <p className="font-semibold">Wallets cannot be created on {selectedChain} yet.</p>
          <p className="mt-1">{readiness.reason}</p>
          <Link to="/setup" className="mt-2 inline-block font-medium text-amber-950 underline">
            Open Setup
          </Link>
        </div>
      ) : null}
      {mutation.error ? (
        <ErrorPanel error={mutation.error} title="The wallet was not created" />
      ) : null}
      <div className="flex justify-end gap-2">
        <Button onClick={onCancel}>Cancel</Button>
        <Button
          type="submit"
          variant="primary"
          // A refusal (PLAN_LIMIT_REACHED, 403, 404) is answered the same until the request
          // changes, so it offers neither Retry nor Create.
          disabled={
            !isReady ||
            !accountId ||
            !selectedChain ||
            mutation.isPending ||
            (mutation.isError && !isRetryable(mutation.error))
          }
        >
          {mutation.isPending
            ? 'Creating…'
            : mutation.isError && isRetryable(mutation.error)
              ? 'Retry'
              : 'Create wallet'}
        </Button>
      </div>
    </form>
  );
}
