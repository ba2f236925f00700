import { AmountFormatError, displayToAtomic } from '@settlement/protocol';
import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { SelectField, TextField } from '../../../components/ui/field';
import { useSimulateDepositMutation } from '../api/simulate-deposit';

export type DepositAsset = { asset: string; decimals: number };

function toAtomic(
  amount: string,
  decimals: number,
): { atomic: string | null; problem: string | null } {
  if (amount === '') return { atomic: null, problem: null };
  try {
    const atomic = displayToAtomic(amount, decimals);
    return atomic > 0n
      ? { atomic: atomic.toString(), problem: null }
      : { atomic: null, problem: 'Enter more than zero.' };
  } catch (error) {
    return {
      atomic: null,
      problem: error instanceof AmountFormatError ? error.message : 'Not an amount.',
    };
  }
}

/** Sandbox tool: the simulated chain sends `amount` of an asset to this wallet. */
export function SimulateDepositForm({
  walletId,
  assets,
}: {
  walletId: string;
  assets: DepositAsset[];
}) {
  // The operator's choice, if any; else the first asset. Derived, not stored at mount: the
  // catalog may arrive after the form (a wallet opened on a cold page), and an initial state
  // taken from an empty list showed TRX selected while the button stayed disabled.
  const [pickedAsset, setAsset] = useState<string | null>(null);
  const asset = assets.find((a) => a.asset === pickedAsset)?.asset ?? assets[0]?.asset ?? '';
  const [amount, setAmount] = useState('');
  const mutation = useSimulateDepositMutation();
  const decimals = assets.find((a) => a.asset === asset)?.decimals ?? null;
  const { atomic, problem } =
    decimals === null ? { atomic: null, problem: null } : toAtomic(amount, decimals);

  const handleSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    if (!atomic || mutation.isPending) return;
    mutation.mutate(
      { walletId, asset, amountAtomic: atomic },
      {
        onSuccess: () => {
          setAmount('');
        },
      },
    );
  };

  if (assets.length === 0) {
    return (
      <p className="p-4 text-sm text-slate-600">No asset is enabled on this wallet's chain.</p>
    );
  }
  return (
    <form onSubmit={handleSubmit} className="space-y-3 p-4" aria-label="Simulate a deposit">
      <p className="text-sm text-slate-600">
        The sandbox chain sends a deposit to this wallet. Watch it go from observed to credited.
      </p>
      <div className="grid grid-cols-2 gap-3">
        <SelectField
          label="Deposit asset"
          value={asset}
          onChange={(event) => {
            setAsset(event.target.value);
          }}
          options={assets.map((a) => ({ value: a.asset, label: a.asset }))}
        />
        <TextField
          label="Deposit amount"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(event) => {
            setAmount(event.target.value.trim());
          }}
          error={problem}
          hint={atomic ? `${atomic} atomic units` : undefined}
        />
      </div>
      {mutation.error ? (
        <ErrorPanel error={mutation.error} title="The deposit was not simulated" />
      ) : null}
      {mutation.isSuccess ? (
        <p role="status" className="text-sm font-medium text-emerald-800">
          Deposit sent. It appears in the transactions below as the chain observes it.
        </p>
      ) : null}
      <Button type="submit" disabled={!atomic || mutation.isPending}>
        {mutation.isPending ? 'Sending…' : 'Simulate deposit'}
      </Button>
    </form>
  );
}
