import { METADATA_MAX_BYTES } from '@settlement/protocol';

export type MetadataCheck =
  | { isValid: true; value: Record<string, unknown> | undefined; bytes: number }
  | { isValid: false; problem: string; bytes: number };

const encoder = new TextEncoder();

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates the metadata editor's text: empty means "no metadata"; otherwise a JSON object whose
 * serialized UTF-8 size is within 16 KiB (what is sent is what is measured).
 */
export function checkMetadata(text: string): MetadataCheck {
  if (text.trim() === '') return { isValid: true, value: undefined, bytes: 0 };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return {
      isValid: false,
      problem: `Not valid JSON: ${error instanceof Error ? error.message : 'parse error'}`,
      bytes: encoder.encode(text).length,
    };
  }
  if (!isJsonObject(parsed)) {
    return {
      isValid: false,
      problem: 'Metadata must be a JSON object, like {"region": "EU"}.',
      bytes: encoder.encode(text).length,
    };
  }
  const bytes = encoder.encode(JSON.stringify(parsed)).length;
  if (bytes > METADATA_MAX_BYTES) {
    return {
      isValid: false,
      problem: `Metadata is ${bytes.toLocaleString()} bytes; the limit is ${METADATA_MAX_BYTES.toLocaleString()} bytes (16 KiB).`,
      bytes,
    };
  }
  return { isValid: true, value: parsed, bytes };
}
