export { migrate, migrationChecksum, MigrationError, pendingMigrations } from './migrate';
export type { Migration, MigrateOptions } from './migrate';
export { FALLBACK_AUTOCHECKPOINT_PAGES, startCheckpointer } from './checkpointer';
export type { Checkpointer, CheckpointResult } from './checkpointer';
