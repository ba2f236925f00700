import { ADDRESS_BOOK_LIST_MAX, type AddressBookEntry } from '@settlement/protocol';

/**
 * The address book as the withdrawal form sees it: only ACTIVE entries of the source wallet's
 * chain are offered (the policy counts nothing else as an address-book destination), and the
 * typed address is looked up among all entries of that chain so a pending one can be named.
 */

export function bookOptionsFor(entries: readonly AddressBookEntry[], chain: string) {
  return entries
    .filter((entry) => entry.status === 'ACTIVE' && entry.chain === chain)
    .sort((a, b) => a.label.localeCompare(b.label));
}

export type BookStatus =
  | { kind: 'active'; entry: AddressBookEntry }
  /** In the book but not yet approved: the policy still treats it as any other address. */
  | { kind: 'pending'; entry: AddressBookEntry }
  | { kind: 'absent' }
  /**
   * Not among the entries listed, but the list was full (the BFF lists the newest
   * ADDRESS_BOOK_LIST_MAX): an older entry may still hold it, and the policy would count it.
   */
  | { kind: 'unlisted' };

export function bookStatusOf(
  entries: readonly AddressBookEntry[],
  chain: string,
  address: string,
): BookStatus {
  const onChain = entries.filter((entry) => entry.chain === chain && entry.address === address);
  const active = onChain.find((entry) => entry.status === 'ACTIVE');
  if (active) return { kind: 'active', entry: active };
  const pending = onChain.find((entry) => entry.status === 'PENDING_APPROVAL');
  if (pending) return { kind: 'pending', entry: pending };
  return entries.length >= ADDRESS_BOOK_LIST_MAX ? { kind: 'unlisted' } : { kind: 'absent' };
}
