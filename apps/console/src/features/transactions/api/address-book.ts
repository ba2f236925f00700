import { AddressBookListSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { transactionKeys } from './keys';

/** GET /bff/address-book: every entry (the form offers the ACTIVE ones of the wallet's chain). */
function fetchAddressBook(signal?: AbortSignal) {
  return apiRequest('/bff/address-book', AddressBookListSchema, { signal });
}

export const addressBookQuery = () =>
  queryOptions({
    queryKey: transactionKeys.addressBook(),
    queryFn: ({ signal }) => fetchAddressBook(signal),
    select: (list) => list.items,
  });
