import { z } from 'zod';
import type { Sql } from './sql';

const ValueSchema = z.object({ value: z.string() });

export type SettingsStore = {
  get(key: string): Promise<string | null>;
  /** Stores `value` unless the key already has one; returns the value that is stored. */
  getOrCreate(key: string, value: () => string): Promise<string>;
};

export function createSettingsStore(db: Sql): SettingsStore {
  const read = async (key: string) => {
    const row = await db.get('SELECT value FROM settings WHERE key = ?', [key]);
    return row === undefined ? null : ValueSchema.parse(row).value;
  };
  return {
    get: read,
    async getOrCreate(key, value) {
      const existing = await read(key);
      if (existing !== null) return existing;
      // Two replicas may race here: the first insert wins and both read its value back.
      await db.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', [
        key,
        value(),
      ]);
      const stored = await read(key);
      if (stored === null) throw new Error(`setting ${key} was not stored`);
      return stored;
    },
  };
}
