import { z } from 'zod/mini';

export const CHAINS = ['tron:mainnet', 'tron:nile'] as const;
export const ChainSchema = z.enum(CHAINS);
export type Chain = z.infer<typeof ChainSchema>;

export const TimestampSchema = z.iso.datetime({ offset: true });

/** `{ items, nextCursor }`: the list envelope of every cursor-paginated endpoint. */
export function listEnvelope<T extends z.core.$ZodType>(item: T) {
  return z.looseObject({ items: z.array(item), nextCursor: z.nullable(z.string()) });
}
export type ListEnvelope<T> = { items: T[]; nextCursor: string | null };

/**
 * 1 to 128 characters: externalId and clientReference. The messages are written for a person:
 * the console shows them next to the field.
 */
export const Reference128Schema = z
  .string()
  .check(z.minLength(1, 'At least 1 character.'), z.maxLength(128, 'At most 128 characters.'));

export const LIMIT_DEFAULT = 50;
export const LIMIT_MAX = 200;
export const METADATA_MAX_BYTES = 16 * 1024;

/** UTF-8 bytes of the JSON text of `value`: what is sent is what is measured. */
export function jsonByteLength(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

/** An account's metadata: a JSON object of at most 16 KiB (UTF-8 bytes of its JSON text). */
export const MetadataSchema = z.lazy(() =>
  z.record(z.string(), z.unknown()).check(
    z.refine((metadata) => jsonByteLength(metadata) <= METADATA_MAX_BYTES, {
      error: (issue) =>
        `Metadata is ${jsonByteLength(issue.input).toLocaleString('en-US')} bytes; the limit is ${METADATA_MAX_BYTES.toLocaleString('en-US')} bytes (16 KiB).`,
    }),
  ),
);
export const FINALITY_CONFIRMATIONS = 19;
