import { tronAddressProblem } from '@settlement/protocol';
import { TextField } from '../../../components/ui/field';
import { destinationProblem } from '../model/destination';
import type { Destination } from '../model/destination';

/** Why `value` is not a TRON address (protocol's validation), in words; null when it is one. */
export function addressProblem(value: string): string | null {
  if (value === '') return 'Enter the destination address.';
  // An EVM address is a common paste mistake: name it, rather than only "starts with T".
  if (/^0x[0-9a-fA-F]*$/.test(value)) {
    return 'This is a 0x… (Ethereum-style) address, not a TRON address. TRON addresses start with T.';
  }
  return tronAddressProblem(value);
}

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
