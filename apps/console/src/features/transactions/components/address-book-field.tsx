import { ADDRESS_BOOK_LIST_MAX, type AddressBookEntry } from '@settlement/protocol';
import { SelectField } from '../../../components/ui/field';
import { bookOptionsFor, bookStatusOf } from '../model/address-book-status';

/**
 * The address book beside the destination: its ACTIVE entries of the wallet's chain by label
 * (choosing one fills the address), and whether the typed address is in the book.
 */
export function AddressBookField({
  entries,
  isFailed,
  chain,
  address,
  isAddressValid,
  onChoose,
}: {
  /** Undefined while loading. */
  entries: readonly AddressBookEntry[] | undefined;
  isFailed: boolean;
  chain: string;
  address: string;
  isAddressValid: boolean;
  onChoose: (address: string) => void;
}) {
  if (isFailed) {
    return (
      <p role="note" className="text-xs text-slate-600">
        The address book could not be read: type the address instead.
      </p>
    );
  }
  if (!entries) return null;
  const options = bookOptionsFor(entries, chain);
  const status = isAddressValid ? bookStatusOf(entries, chain, address) : null;
  return (
    <div className="space-y-1">
      {options.length > 0 ? (
        <SelectField
          label="Address book"
          value={status?.kind === 'active' ? status.entry.id : ''}
          onChange={(event) => {
            const entry = options.find((o) => o.id === event.target.value);
            if (entry) onChoose(entry.address);
          }}
          options={[
            { value: '', label: `Choose a saved ${chain} address` },
            ...options.map((o) => ({ value: o.id, label: `${o.label} — ${o.address}` })),
          ]}
        />
      ) : (
        <p className="text-xs text-slate-600">
          The address book has no approved {chain} address yet.
        </p>
      )}
      {status ? <BookStatusLine status={status} /> : null}
    </div>
  );
}

function BookStatusLine({ status }: { status: ReturnType<typeof bookStatusOf> }) {
  switch (status.kind) {
    case 'active':
      return (
        <p role="status" className="text-sm text-emerald-900">
          In the address book as <strong>{status.entry.label}</strong>.
        </p>
      );
    case 'pending':
      return (
        <p role="status" className="text-sm text-amber-900">
          In the address book as <strong>{status.entry.label}</strong>, but still pending an admin’s
          approval: until then the policy treats it as any other address.
        </p>
      );
    case 'absent':
      return (
        <p role="status" className="text-xs text-slate-600">
          Not in the address book.
        </p>
      );
    case 'unlisted':
      return (
        <p role="status" className="text-xs text-slate-600">
          Not among the newest {ADDRESS_BOOK_LIST_MAX} address-book entries listed here; the
          withdrawal policy below looks it up in the whole book.
        </p>
      );
  }
}
