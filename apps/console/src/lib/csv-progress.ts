const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

export type CsvProgress = {
  /** Data rows received so far (the header row is not counted). */
  rows: number;
  bytes: number;
  /** True when the bytes so far end on a record delimiter outside quotes: nothing cut mid-row. */
  isAtRecordEnd: boolean;
};

/**
 * Counts the records of an RFC 4180 stream (CRLF-delimited) chunk by chunk, as it downloads. A
 * line break inside a quoted cell is part of the cell, not a new row, so quote state is carried
 * across chunks. Scanning bytes is safe in UTF-8: `"`, CR and LF never occur inside a multi-byte
 * character.
 */
export function createCsvCounter() {
  let records = 0;
  let bytes = 0;
  let isQuoted = false;
  let previous = -1;
  return {
    add(chunk: Uint8Array): CsvProgress {
      for (const byte of chunk) {
        if (byte === QUOTE) isQuoted = !isQuoted;
        else if (byte === LF && previous === CR && !isQuoted) records += 1;
        previous = byte;
      }
      bytes += chunk.byteLength;
      return this.progress();
    },
    progress(): CsvProgress {
      return {
        rows: Math.max(0, records - 1),
        bytes,
        isAtRecordEnd: !isQuoted && previous === LF && bytes > 0,
      };
    },
  };
}

/** 1.2 MB, 340 kB, 12 B: decimal units, as file managers show sizes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
