import { AmountFormatError, displayToAtomic } from '@settlement/protocol';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { SelectField, TextField } from '../../../components/ui/field';
import { partialPickerHint } from '../../../lib/paging';
import { useDryRunMutation } from '../api/dry-run';
import { DecisionExplanation } from './decision-explanation';

/** A wallet the dry run can start from, as the picker names it. */
export type DryRunWallet = { id: string; name: string; address: string; chain: string };

/**
 * "What would the policy do with this withdrawal, and why?" Read-only. The source is picked
 * from the organization's ACTIVE wallets, by the name and address people know them by: no one
 * remembers a wallet id.
 */
export function DryRunPanel({
  assets,
  wallets,
  isWalletListPartial,
  decimalsFor,
}: {
  assets: readonly string[];
  wallets: readonly DryRunWallet[];
  /** More ACTIVE wallets exist than the picker lists. */
  isWalletListPartial: boolean;
  decimalsFor: (asset: string) => number | null;
}) {
  const [walletId, setWalletId] = useState('');
  // Derived, not stored at mount: with the catalog still loading, a stored 'TRX' could differ
  // from the option the select then shows first, and the dry run would test another asset.
  const [pickedAsset, setAsset] = useState<string | null>(null);
  const asset = assets.find((a) => a === pickedAsset) ?? assets[0] ?? '';
  const [toAddress, setToAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [amountError, setAmountError] = useState<string | null>(null);
  const dryRun = useDryRunMutation();
  const decimals = decimalsFor(asset);

  return (
    <div className="space-y-4 p-4">
      <form
        className="grid gap-3 sm:grid-cols-2"
        onSubmit={(event) => {
          event.preventDefault();
          try {
            const amountAtomic = displayToAtomic(amount.trim(), decimals ?? 0).toString();
            setAmountError(null);
            dryRun.mutate({
              walletId,
              asset,
              toAddress: toAddress.trim(),
              amountAtomic,
            });
          } catch (error) {
            setAmountError(error instanceof AmountFormatError ? error.message : 'Not an amount.');
          }
        }}
      >
        <SelectField
          label="From wallet"
          hint={
            isWalletListPartial ? partialPickerHint(wallets.length, 'ACTIVE wallets') : undefined
          }
          value={walletId}
          required
          options={[
            { value: '', label: wallets.length ? 'Choose a wallet' : 'No ACTIVE wallet' },
            ...wallets.map((w) => ({
              value: w.id,
              label: `${w.name} — ${w.address} (${w.chain})`,
            })),
          ]}
          onChange={(event) => {
            setWalletId(event.target.value);
          }}
        />
        <SelectField
          label="Asset"
          value={asset}
          options={assets.map((a) => ({ value: a, label: a }))}
          onChange={(event) => {
            setAsset(event.target.value);
          }}
        />
        <TextField
          label="Destination address"
          value={toAddress}
          required
          onChange={(event) => {
            setToAddress(event.target.value);
          }}
        />
        <TextField
          label={`Amount (${asset})`}
          value={amount}
          required
          inputMode="decimal"
          error={amountError}
          onChange={(event) => {
            setAmount(event.target.value);
          }}
        />
        <div className="sm:col-span-2">
          <Button type="submit" disabled={dryRun.isPending}>
            Run the policy
          </Button>
        </div>
      </form>
      {dryRun.isError ? <ErrorPanel error={dryRun.error} /> : null}
      {dryRun.data ? (
        <section aria-label="Dry-run result" className="rounded-md border border-slate-200">
          <DecisionExplanation decision={dryRun.data} decimals={decimals} />
        </section>
      ) : null}
    </div>
  );
}
