import { z } from 'zod';
import type { Sql } from './sql';

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

const CountSchema = z.object({ n: z.number().int() });

/** Bounds the table: labels are one per wallet, and an organization has at most this many. */
const WALLET_LABELS_MAX = 10_000;

export type WalletLabelStore = {
  list(): Promise<StoredWalletLabel[]>;
  get(walletId: string): Promise<StoredWalletLabel | null>;
  /** Sets the label; false when the table is full and the wallet has none yet. */
  set(entry: StoredWalletLabel): Promise<boolean>;
  /** Removes the label; true when there was one. */
  remove(walletId: string): Promise<boolean>;
};

export function createWalletLabelStore(db: Sql): WalletLabelStore {
  const one = 'SELECT * FROM wallet_labels WHERE wallet_id = ?';
  return {
    list: async () =>
      (
        await db.all('SELECT * FROM wallet_labels ORDER BY wallet_id LIMIT ?', [WALLET_LABELS_MAX])
      ).map(toLabel),
    get: async (walletId) => {
      const row = await db.get(one, [walletId]);
      return row === undefined ? null : toLabel(row);
    },
    set: (entry) =>
      db.transaction(async (tx) => {
        const isNew = (await tx.get(one, [entry.walletId])) === undefined;
        const count = CountSchema.parse(await tx.get('SELECT COUNT(*) AS n FROM wallet_labels')).n;
        if (isNew && count >= WALLET_LABELS_MAX) return false;
        await tx.run(
          `INSERT INTO wallet_labels (wallet_id, label, updated_at, updated_by) VALUES (?, ?, ?, ?)
           ON CONFLICT (wallet_id) DO UPDATE SET label = excluded.label,
             updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
          [entry.walletId, entry.label, entry.updatedAt, entry.updatedBy],
        );
        return true;
      }),
    remove: async (walletId) =>
      (await db.run('DELETE FROM wallet_labels WHERE wallet_id = ?', [walletId])) > 0,
  };
}
