import { CHAINS, tronAddressProblem, type NewAddressBookEntry } from '@settlement/protocol';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';

/** Proposes an entry; it stays PENDING_APPROVAL until another admin approves it. */
export function AddressBookForm({
  isBusy,
  onSubmit,
}: {
  isBusy: boolean;
  onSubmit: (entry: NewAddressBookEntry) => void;
}) {
  const [chain, setChain] = useState<NewAddressBookEntry['chain']>('tron:nile');
  const [address, setAddress] = useState('');
  const [label, setLabel] = useState('');
  const [addressError, setAddressError] = useState<string | null>(null);
  return (
    <form
      className="grid gap-3 p-4 sm:grid-cols-[10rem_minmax(0,2fr)_minmax(0,1fr)_auto] sm:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        const problem = tronAddressProblem(address.trim());
        setAddressError(problem);
        if (problem) return;
        onSubmit({ chain, address: address.trim(), label: label.trim() });
      }}
    >
      <SelectField
        label="Chain"
        value={chain}
        options={CHAINS.map((c) => ({ value: c, label: c }))}
        onChange={(event) => {
          const next = CHAINS.find((c) => c === event.target.value);
          if (next) setChain(next);
        }}
      />
      <TextField
        label="Address"
        value={address}
        required
        error={addressError}
        onChange={(event) => {
          setAddress(event.target.value);
        }}
      />
      <TextField
        label="Label"
        value={label}
        required
        maxLength={120}
        onChange={(event) => {
          setLabel(event.target.value);
        }}
      />
      <Button type="submit" variant="primary" disabled={isBusy}>
        Propose entry
      </Button>
    </form>
  );
}
