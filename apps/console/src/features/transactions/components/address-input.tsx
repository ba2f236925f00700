import { TextField } from '../../../components/ui/field';
import { addressProblem, destinationProblem } from '../model/destination';
import type { Destination } from '../model/destination';

/** Destination with live TRON validation and what the address is to the organization. */
export function AddressInput({
  value,
  onChange,
  destination,
  sourceChain,
  disabled,
}: {
  value: string;
  onChange: (value: string) => void;
  destination: Destination;
  sourceChain: string;
  disabled?: boolean;
}) {
  const problem = value === '' ? null : addressProblem(value);
  const isValid = value !== '' && problem === null;
  const blocking = destinationProblem(destination, sourceChain);
  return (
    <div className="space-y-1">
      <TextField
        label="Destination address"
        value={value}
        onChange={(event) => {
          onChange(event.target.value.trim());
        }}
        autoComplete="off"
        spellCheck={false}
        className="font-mono"
        placeholder="T…"
        error={problem}
        disabled={disabled}
        hint={
          isValid ? 'Valid TRON address.' : 'A TRON base58 address, 34 characters starting with T.'
        }
      />
      {destination.kind === 'internal' ? (
        <p
          role="status"
          className="rounded-md bg-sky-50 px-3 py-2 text-sm text-sky-950 ring-1 ring-sky-200"
        >
          Internal transfer to account <strong>{destination.wallet.accountName}</strong>: this
          address is one of your organization's {sourceChain} wallets.
        </p>
      ) : destination.kind === 'external' ? (
        <p role="status" className="text-xs text-slate-600">
          Not one of your organization's wallets: an external withdrawal on {sourceChain}.
        </p>
      ) : destination.kind === 'checking' ? (
        <p role="status" className="text-xs text-slate-600">
          {blocking}
        </p>
      ) : blocking ? (
        <p
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900"
        >
          {blocking}
        </p>
      ) : null}
    </div>
  );
}
