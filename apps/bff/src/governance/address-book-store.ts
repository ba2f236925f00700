import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  AddressBookStatusSchema,
  ChainSchema,
  type AddressBookEntry,
  type NewAddressBookEntry,
} from '@settlement/protocol';
import type { Db } from '../store/db';

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

export type AddressBookStore = ReturnType<typeof createAddressBookStore>;

/** Address-book entries; (chain, address) is unique among entries not REMOVED. */
export function createAddressBookStore(db: Db, now: () => number = Date.now) {
  const byId = db.prepare('SELECT * FROM address_book WHERE id = ?');
  const live = db.prepare(
    "SELECT * FROM address_book WHERE chain = ? AND address = ? AND status != 'REMOVED'",
  );
  const all = db.prepare(
    "SELECT * FROM address_book WHERE status != 'REMOVED' OR ? = 1 ORDER BY created_at DESC LIMIT 500",
  );
  const insert = db.prepare(
    `INSERT INTO address_book (id, chain, address, label, status, created_by, created_at)
     VALUES (?, ?, ?, ?, 'PENDING_APPROVAL', ?, ?)`,
  );
  const approve = db.prepare(
    `UPDATE address_book SET status = 'ACTIVE', approved_by = ?, approved_at = ?
     WHERE id = ? AND status = 'PENDING_APPROVAL'`,
  );
  const remove = db.prepare(
    `UPDATE address_book SET status = 'REMOVED', removed_by = ?, removed_at = ?
     WHERE id = ? AND status != 'REMOVED'`,
  );
  return {
    get: (id: string) => toEntry(byId.get(id)),
    /** The entry (pending or active) that holds this address on this chain, if any. */
    findLive: (chain: string, address: string) => toEntry(live.get(chain, address)),
    list: (includeRemoved = false) => entries(all.all(includeRemoved ? 1 : 0)),
    /** A new PENDING_APPROVAL entry, or the existing live one when (chain, address) is taken. */
    add: db.transaction(
      (
        entry: NewAddressBookEntry,
        operator: string,
      ): { entry: AddressBookEntry; isNew: boolean } => {
        const existing = toEntry(live.get(entry.chain, entry.address));
        if (existing) return { entry: existing, isNew: false };
        const id = `ab_${randomUUID()}`;
        insert.run(id, entry.chain, entry.address, entry.label, operator, now());
        const created = toEntry(byId.get(id));
        if (!created) throw new Error('address-book entry vanished');
        return { entry: created, isNew: true };
      },
    ),
    /** PENDING_APPROVAL -> ACTIVE; false when it was not pending. */
    approve: (id: string, operator: string) => approve.run(operator, now(), id).changes > 0,
    /** -> REMOVED; false when it was already removed or unknown. */
    remove: (id: string, operator: string) => remove.run(operator, now(), id).changes > 0,
  };
}
