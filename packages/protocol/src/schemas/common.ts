import { z } from 'zod';

export const CHAINS = ['tron:mainnet', 'tron:nile'] as const;
export const ChainSchema = z.enum(CHAINS);
export type Chain = z.infer<typeof ChainSchema>;

export const TimestampSchema = z.iso.datetime({ offset: true });

/** `{ items, nextCursor }`: the list envelope of every cursor-paginated endpoint. */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({ items: z.array(item), nextCursor: z.string().nullable() });
}
export type ListEnvelope<T> = { items: T[]; nextCursor: string | null };

/** 1 to 128 characters: externalId and clientReference. */
export const Reference128Schema = z.string().min(1).max(128);

export const LIMIT_DEFAULT = 50;
export const LIMIT_MAX = 200;
export const METADATA_MAX_BYTES = 16 * 1024;
export const FINALITY_CONFIRMATIONS = 19;
