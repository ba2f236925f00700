import { ADDRESS_BOOK_LIST_MAX } from '@settlement/protocol';
import { describe, expect, it } from 'vitest';
import { bookOptionsFor, bookStatusOf } from './address-book-status';
import { addressBookEntryFixture } from '../../../test/governance-fixtures';

const A = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const B = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

const entries = [
  addressBookEntryFixture({ id: 'zeta', label: 'Zeta exchange', address: A }),
  addressBookEntryFixture({ id: 'alpha', label: 'Alpha payroll', address: B }),
  addressBookEntryFixture({
    id: 'pending',
    label: 'Pending vendor',
    address: B,
    status: 'PENDING_APPROVAL',
  }),
  addressBookEntryFixture({ id: 'gone', label: 'Old vendor', status: 'REMOVED' }),
  addressBookEntryFixture({ id: 'main', label: 'Mainnet cold', chain: 'tron:mainnet' }),
];

describe('bookOptionsFor', () => {
  it('offers only ACTIVE entries of the wallet chain, by label', () => {
    expect(bookOptionsFor(entries, 'tron:nile').map((e) => e.id)).toEqual(['alpha', 'zeta']);
    expect(bookOptionsFor(entries, 'tron:mainnet').map((e) => e.id)).toEqual(['main']);
  });
});

describe('bookStatusOf', () => {
  it('an ACTIVE entry wins over a pending one for the same address', () => {
    expect(bookStatusOf(entries, 'tron:nile', B)).toMatchObject({
      kind: 'active',
      entry: { label: 'Alpha payroll' },
    });
  });

  it('a pending entry is named as pending', () => {
    const pendingOnly = entries.filter((e) => e.id === 'pending');
    expect(bookStatusOf(pendingOnly, 'tron:nile', B)).toMatchObject({
      kind: 'pending',
      entry: { label: 'Pending vendor' },
    });
  });

  it('a removed entry, or one on another chain, is not in the book', () => {
    const removedOnly = entries.filter((e) => e.id === 'gone');
    expect(bookStatusOf(removedOnly, 'tron:nile', A)).toEqual({ kind: 'absent' });
    const mainnetOnly = entries.filter((e) => e.id === 'main');
    expect(bookStatusOf(mainnetOnly, 'tron:nile', A)).toEqual({ kind: 'absent' });
  });

  it('an address missing from a full list may be in an older entry: unlisted, not absent', () => {
    const full = Array.from({ length: ADDRESS_BOOK_LIST_MAX }, (_, i) =>
      addressBookEntryFixture({ id: `e${String(i)}`, address: `TOther${String(i)}` }),
    );
    expect(bookStatusOf(full, 'tron:nile', A)).toEqual({ kind: 'unlisted' });
    expect(bookStatusOf(full.slice(1), 'tron:nile', A)).toEqual({ kind: 'absent' });
  });
});
