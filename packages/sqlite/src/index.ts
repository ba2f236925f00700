export { migrate, migrationChecksum, MigrationError, pendingMigrations } from './migrate';
export type { Migration, MigrateOptions } from './migrate';
