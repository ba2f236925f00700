import { join } from 'node:path';
import type { Config } from '../config';
import { openDb } from './db';
import { migratePostgres } from './postgres-migrations';
import { postgresSql } from './postgres-sql';
import type { Sql } from './sql';

/**
 * The configured database, migrated: PostgreSQL when DATABASE_URL is set (shared by every
 * replica), else SQLite at $DATA_DIR/bff/bff.db (the embedded default).
 */
export async function openStorage(config: Pick<Config, 'dataDir' | 'databaseUrl'>): Promise<Sql> {
  if (config.databaseUrl !== null) {
    await migratePostgres(config.databaseUrl);
    return postgresSql(config.databaseUrl);
  }
  return openDb(join(config.dataDir, 'bff', 'bff.db'));
}
