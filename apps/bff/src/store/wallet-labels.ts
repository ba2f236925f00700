import { z } from 'zod';
import type { Db } from './db';

export type StoredWalletLabel = {
  walletId: string;
  label: string;
  updatedAt: number;
  updatedBy: string;
};

const RowSchema = z.object({
  wallet_id: z.string(),
  label: z.string(),
  updated_at: z.number().int(),
  updated_by: z.string(),
});

function toLabel(row: unknown): StoredWalletLabel {
  const r = RowSchema.parse(row);
  return {
    walletId: r.wallet_id,
    label: r.label,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by,
  };
}

/** Bounds the table: labels are one per wallet, and an organization has at most this many. */
const WALLET_LABELS_MAX = 10_000;

export type WalletLabelStore = ReturnType<typeof createWalletLabelStore>;

export function createWalletLabelStore(db: Db) {
  const all = db.prepare('SELECT * FROM wallet_labels ORDER BY wallet_id LIMIT ?');
  const one = db.prepare('SELECT * FROM wallet_labels WHERE wallet_id = ?');
  const count = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM wallet_labels');
  const upsert = db.prepare(
    `INSERT INTO wallet_labels (wallet_id, label, updated_at, updated_by)
     VALUES (@walletId, @label, @updatedAt, @updatedBy)
     ON CONFLICT (wallet_id) DO UPDATE SET label = excluded.label,
       updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
  );
  const remove = db.prepare('DELETE FROM wallet_labels WHERE wallet_id = ?');

  return {
    list: (): StoredWalletLabel[] => all.all(WALLET_LABELS_MAX).map(toLabel),
    get: (walletId: string): StoredWalletLabel | null => {
      const row = one.get(walletId);
      return row === undefined ? null : toLabel(row);
    },
    /** Sets the label; false when the table is full and the wallet has none yet. */
    set: db.transaction((entry: StoredWalletLabel): boolean => {
      const isNew = one.get(entry.walletId) === undefined;
      if (isNew && (count.get()?.n ?? 0) >= WALLET_LABELS_MAX) return false;
      upsert.run(entry);
      return true;
    }),
    /** Removes the label; true when there was one. */
    remove: (walletId: string): boolean => remove.run(walletId).changes > 0,
  };
}
