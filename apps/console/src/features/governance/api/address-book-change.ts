import { AddressBookEntrySchema, type NewAddressBookEntry } from '@settlement/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { governanceKeys } from './keys';

/** Propose an entry, approve one (another admin), or remove one (admin). */
type AddressBookChange =
  | { kind: 'create'; entry: NewAddressBookEntry }
  | { kind: 'approve'; id: string }
  | { kind: 'remove'; id: string };

function changeAddressBook(change: AddressBookChange) {
  if (change.kind === 'create') {
    return apiRequest('/bff/address-book', AddressBookEntrySchema, {
      method: 'POST',
      body: change.entry,
    });
  }
  const path = `/bff/address-book/${encodeURIComponent(change.id)}`;
  return change.kind === 'approve'
    ? apiRequest(`${path}/approve`, AddressBookEntrySchema, { method: 'POST' })
    : apiRequest(path, AddressBookEntrySchema, { method: 'DELETE' });
}

export function useAddressBookMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeAddressBook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: governanceKeys.addressBook() }),
  });
}
