export { migrate, migrationChecksum, MigrationError } from './migrate';
export type { Migration, MigrateOptions } from './migrate';
