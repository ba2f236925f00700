import {
  NewAddressBookEntrySchema,
  tronAddressProblem,
  type AddressBookEntry,
} from '@settlement/protocol';
import { HttpError } from '../errors';
import type { Session } from '../store/sessions';
import type { GovernanceContext } from './context';

const PATHS = ['/bff/address-book'];

export type AddressBookService = ReturnType<typeof createAddressBookService>;

/** Entries are proposed by treasury or admin and become ACTIVE on another admin's approval. */
export function createAddressBookService(ctx: GovernanceContext) {
  const { book } = ctx;

  async function requireEntry(id: string): Promise<AddressBookEntry> {
    const entry = await book.get(id);
    if (!entry) throw new HttpError('RESOURCE_NOT_FOUND', `No address-book entry ${id}.`);
    return entry;
  }

  return {
    list: (): Promise<AddressBookEntry[]> => book.list(),

    async add(body: unknown, session: Session): Promise<AddressBookEntry> {
      const parsed = NewAddressBookEntrySchema.safeParse(body);
      if (!parsed.success) {
        throw new HttpError(
          'VALIDATION_ERROR',
          parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '),
        );
      }
      const problem = tronAddressProblem(parsed.data.address);
      if (problem) throw new HttpError('INVALID_ADDRESS', `address: ${problem}`);
      const { entry, isNew } = await book.add(parsed.data, session.username);
      if (!isNew) {
        throw new HttpError(
          'ADDRESS_BOOK_DUPLICATE',
          `This address is already in the address book as "${entry.label}" (${entry.status}).`,
          [{ id: entry.id, label: entry.label, status: entry.status }],
        );
      }
      await ctx.audit({
        operator: session.username,
        action: 'address-book.create',
        outcome: 'pending approval',
        resourceId: entry.id,
        detail: `${entry.chain} ${entry.address} "${entry.label}"`,
      });
      ctx.notify('address-book', PATHS);
      return entry;
    },

    async approve(id: string, session: Session): Promise<AddressBookEntry> {
      const entry = await requireEntry(id);
      if (entry.createdBy === session.username) {
        throw new HttpError(
          'SELF_APPROVAL_FORBIDDEN',
          'Another admin must approve the entry you proposed.',
          [{ id }],
        );
      }
      if (session.role !== 'admin')
        throw new HttpError('FORBIDDEN', 'Approving address-book entries needs the admin role.');
      if (!(await book.approve(id, session.username))) {
        throw new HttpError(
          'REQUEST_NOT_PENDING',
          `This entry is ${(await requireEntry(id)).status}, not awaiting approval.`,
        );
      }
      await ctx.audit({
        operator: session.username,
        action: 'address-book.approve',
        outcome: 'active',
        resourceId: id,
      });
      ctx.notify('address-book', PATHS);
      return await requireEntry(id);
    },

    async remove(id: string, session: Session): Promise<AddressBookEntry> {
      if (session.role !== 'admin')
        throw new HttpError('FORBIDDEN', 'Removing address-book entries needs the admin role.');
      await requireEntry(id);
      if (!(await book.remove(id, session.username)))
        throw new HttpError('REQUEST_NOT_PENDING', 'This entry was already removed.');
      await ctx.audit({
        operator: session.username,
        action: 'address-book.remove',
        outcome: 'removed',
        resourceId: id,
      });
      ctx.notify('address-book', PATHS);
      return await requireEntry(id);
    },
  };
}
