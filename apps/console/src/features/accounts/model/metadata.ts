import { CreateAccountRequestSchema, jsonByteLength, utf8Bytes } from '@settlement/protocol';
import { z } from 'zod/mini';

export type MetadataCheck =
  | { isValid: true; value: Record<string, unknown> | undefined; bytes: number }
  | { isValid: false; problem: string; bytes: number };

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The metadata editor's text as the request's metadata: blank means "no metadata"; otherwise a
 * JSON object, which then meets the protocol's own metadata rule (16 KiB), not a copy of it.
 */
export const MetadataTextSchema = z.pipe(
  z.pipe(
    z.string(),
    z.transform((text, ctx): Record<string, unknown> | undefined => {
      if (text.trim() === '') return undefined;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        ctx.issues.push({
          code: 'custom',
          input: text,
          message: `Not valid JSON: ${error instanceof Error ? error.message : 'parse error'}`,
        });
        return z.NEVER;
      }
      if (!isJsonObject(parsed)) {
        ctx.issues.push({
          code: 'custom',
          input: text,
          message: 'Metadata must be a JSON object, like {"region": "EU"}.',
        });
        return z.NEVER;
      }
      return parsed;
    }),
  ),
  CreateAccountRequestSchema.shape.metadata,
);

/** The size counter: the bytes that would be sent, or of the text while it is not JSON yet. */
function bytesOf(text: string): number {
  if (text.trim() === '') return 0;
  try {
    return jsonByteLength(JSON.parse(text));
  } catch {
    return utf8Bytes(text).length;
  }
}

/** Validates the metadata editor's text and measures it. */
export function checkMetadata(text: string): MetadataCheck {
  const bytes = bytesOf(text);
  const parsed = MetadataTextSchema.safeParse(text);
  return parsed.success
    ? { isValid: true, value: parsed.data, bytes }
    : { isValid: false, problem: parsed.error.issues[0]?.message ?? 'Not valid.', bytes };
}
