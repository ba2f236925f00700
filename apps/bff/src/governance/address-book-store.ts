import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  ADDRESS_BOOK_LIST_MAX,
  AddressBookStatusSchema,
  ChainSchema,
  type AddressBookEntry,
  type NewAddressBookEntry,
} from '@settlement/protocol';
import type { Sql } from '../store/sql';

const RowSchema = z.object({
  id: z.string(),
  chain: ChainSchema,
  address: z.string(),
  label: z.string(),
  status: AddressBookStatusSchema,
  created_by: z.string(),
  created_at: z.number().int(),
  approved_by: z.string().nullable(),
  approved_at: z.number().int().nullable(),
  removed_by: z.string().nullable(),
  removed_at: z.number().int().nullable(),
});

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

function toEntry(row: unknown): AddressBookEntry | null {
  if (row === undefined) return null;
  const r = RowSchema.parse(row);
  return {
    id: r.id,
    chain: r.chain,
    address: r.address,
    label: r.label,
    status: r.status,
    createdBy: r.created_by,
    createdAt: new Date(r.created_at).toISOString(),
    approvedBy: r.approved_by,
    approvedAt: iso(r.approved_at),
    removedBy: r.removed_by,
    removedAt: iso(r.removed_at),
  };
}

function entries(rows: unknown[]): AddressBookEntry[] {
  return rows.map((row) => {
    const entry = toEntry(row);
    if (!entry) throw new Error('unreachable');
    return entry;
  });
}

export type AddressBookStore = {
  get(id: string): Promise<AddressBookEntry | null>;
  /** The entry (pending or active) that holds this address on this chain, if any. */
  findLive(chain: string, address: string): Promise<AddressBookEntry | null>;
  list(includeRemoved?: boolean): Promise<AddressBookEntry[]>;
  /** A new PENDING_APPROVAL entry, or the existing live one when (chain, address) is taken. */
  add(
    entry: NewAddressBookEntry,
    operator: string,
  ): Promise<{ entry: AddressBookEntry; isNew: boolean }>;
  /** PENDING_APPROVAL -> ACTIVE; false when it was not pending. */
  approve(id: string, operator: string): Promise<boolean>;
  /** -> REMOVED; false when it was already removed or unknown. */
  remove(id: string, operator: string): Promise<boolean>;
};

const LIVE = "SELECT * FROM address_book WHERE chain = ? AND address = ? AND status != 'REMOVED'";

/** Address-book entries; (chain, address) is unique among entries not REMOVED. */
export function createAddressBookStore(db: Sql, now: () => number = Date.now): AddressBookStore {
  return {
    get: async (id) => toEntry(await db.get('SELECT * FROM address_book WHERE id = ?', [id])),
    findLive: async (chain, address) => toEntry(await db.get(LIVE, [chain, address])),
    list: async (includeRemoved = false) =>
      entries(
        await db.all(
          `SELECT * FROM address_book ${includeRemoved ? '' : "WHERE status != 'REMOVED'"}
           ORDER BY created_at DESC LIMIT ${ADDRESS_BOOK_LIST_MAX}`,
        ),
      ),
    add: (entry, operator) =>
      db.transaction(async (tx) => {
        const existing = toEntry(await tx.get(LIVE, [entry.chain, entry.address]));
        if (existing) return { entry: existing, isNew: false };
        const id = `ab_${randomUUID()}`;
        // Another replica may add the same address between the read and this insert: the
        // partial unique index refuses the second one (409 ADDRESS_BOOK_DUPLICATE).
        await tx.run(
          `INSERT INTO address_book (id, chain, address, label, status, created_by, created_at)
           VALUES (?, ?, ?, ?, 'PENDING_APPROVAL', ?, ?)`,
          [id, entry.chain, entry.address, entry.label, operator, now()],
        );
        const created = toEntry(await tx.get('SELECT * FROM address_book WHERE id = ?', [id]));
        if (!created) throw new Error('address-book entry vanished');
        return { entry: created, isNew: true };
      }),
    approve: async (id, operator) =>
      (await db.run(
        `UPDATE address_book SET status = 'ACTIVE', approved_by = ?, approved_at = ?
         WHERE id = ? AND status = 'PENDING_APPROVAL'`,
        [operator, now(), id],
      )) > 0,
    remove: async (id, operator) =>
      (await db.run(
        `UPDATE address_book SET status = 'REMOVED', removed_by = ?, removed_at = ?
         WHERE id = ? AND status != 'REMOVED'`,
        [operator, now(), id],
      )) > 0,
  };
}
