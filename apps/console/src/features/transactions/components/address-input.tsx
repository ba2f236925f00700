import { tronAddressProblem } from '@settlement/protocol';
import { TextField } from '../../../components/ui/field';

export type InternalTarget = { walletId: string; accountId: string; accountName: string };

/** Destination with live TRON validation; an address of our own wallet is an internal transfer. */
export function AddressInput({
  value,
  onChange,
  internalTarget,
  disabled,
}: {
  value: string;
  onChange: (value: string) => void;
  internalTarget: InternalTarget | null;
  disabled?: boolean;
}) {
  const problem = value === '' ? null : tronAddressProblem(value);
  const isValid = value !== '' && problem === null;
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
      {isValid && internalTarget ? (
        <p
          role="status"
          className="rounded-md bg-sky-50 px-3 py-2 text-sm text-sky-950 ring-1 ring-sky-200"
        >
          Internal transfer to account <strong>{internalTarget.accountName}</strong>: this address
          is one of your organization's wallets.
        </p>
      ) : null}
    </div>
  );
}
