import type { Db } from './db';

export type SettingsStore = ReturnType<typeof createSettingsStore>;

export function createSettingsStore(db: Db) {
  const select = db.prepare<[string], { value: string }>(
    'SELECT value FROM settings WHERE key = ?',
  );
  const insertIfMissing = db.prepare('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)');
  return {
    get: (key: string): string | null => select.get(key)?.value ?? null,
    /** Stores `value` unless the key already has one; returns the value that is stored. */
    getOrCreate(key: string, value: () => string): string {
      const existing = select.get(key);
      if (existing) return existing.value;
      insertIfMissing.run(key, value());
      const stored = select.get(key);
      if (!stored) throw new Error(`setting ${key} was not stored`);
      return stored.value;
    },
  };
}
