import { ADDRESS_BOOK_LIST_MAX, type AddressBookEntry } from '@settlement/protocol';
import { screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressBookEntryFixture } from '../../../test/governance-fixtures';
import { renderWithApp, sessionFor } from '../../../test/render';
import { startApiTestServer, type TestServer } from '../../../test/test-server';
import { AddressBookPage } from './address-book-page';

let server: TestServer;
/** What GET /bff/address-book answers. */
let listed: AddressBookEntry[] = [];

beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/address-book', () => ({ body: { items: listed } }));
});
afterAll(() => server.close());

function entries(count: number): AddressBookEntry[] {
  return Array.from({ length: count }, (_, i) =>
    addressBookEntryFixture({ id: `ab_${String(i)}`, label: `Vendor ${String(i)}` }),
  );
}

describe('AddressBookPage', () => {
  it('says a full list shows only the newest entries, which the policy does not depend on', async () => {
    listed = entries(ADDRESS_BOOK_LIST_MAX);
    renderWithApp(<AddressBookPage />, { path: '/address-book', session: sessionFor('admin') });
    expect(await screen.findByRole('note')).toHaveTextContent(
      `Showing the newest ${String(ADDRESS_BOOK_LIST_MAX)} entries. Older entries are not listed here; the withdrawal policy still counts every active one.`,
    );
  });

  it('says nothing of the kind when every entry is listed', async () => {
    listed = entries(ADDRESS_BOOK_LIST_MAX - 1);
    renderWithApp(<AddressBookPage />, { path: '/address-book', session: sessionFor('admin') });
    expect(await screen.findByRole('table', { name: 'Active entries' })).toBeInTheDocument();
    expect(screen.queryByRole('note')).toBeNull();
  });
});
