import { AddressBookListSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { governanceKeys } from './keys';

export function addressBookQuery() {
  return queryOptions({
    queryKey: governanceKeys.addressBook(),
    queryFn: ({ signal }) => apiRequest('/bff/address-book', AddressBookListSchema, { signal }),
  });
}
