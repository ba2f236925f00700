import { describe, expect, it, vi } from 'vitest';
import { formatLocal, formatUtc } from './format-time';

describe('formatLocal', () => {
  it('formats each timestamp once: a row shown again reuses the text', () => {
    // `format` is an accessor of Intl.DateTimeFormat.prototype: each formatting reads it once.
    const format = vi.spyOn(Intl.DateTimeFormat.prototype, 'format' as never, 'get');
    try {
      const first = formatLocal('2026-05-06T07:08:09.000Z');
      expect(formatLocal('2026-05-06T07:08:09.000Z')).toBe(first);
      expect(format).toHaveBeenCalledTimes(1);
      expect(formatLocal('2026-05-06T07:08:10.000Z')).not.toBe(first);
      expect(format).toHaveBeenCalledTimes(2);
    } finally {
      format.mockRestore();
    }
  });

  it('gives back a value that is not a timestamp as it is', () => {
    expect(formatLocal('not a time')).toBe('not a time');
  });

  it('builds its DateTimeFormat on first use, not when a page chunk imports it', async () => {
    vi.resetModules();
    const Original = Intl.DateTimeFormat;
    const constructed = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (
      ...args: ConstructorParameters<typeof Original>
    ) {
      return new Original(...args);
    });
    try {
      const fresh = await import('./format-time');
      expect(constructed).not.toHaveBeenCalled();
      fresh.formatLocal('2026-05-06T07:08:09.000Z');
      fresh.formatLocal('2026-05-06T07:08:11.000Z');
      expect(constructed).toHaveBeenCalledTimes(1);
    } finally {
      constructed.mockRestore();
    }
  });
});

describe('formatUtc', () => {
  it('gives the exact UTC time, and the same text again without formatting it again', () => {
    const toIso = vi.spyOn(Date.prototype, 'toISOString');
    try {
      expect(formatUtc('2026-05-06T07:08:09.123Z')).toBe('2026-05-06 07:08:09.123 UTC');
      expect(formatUtc('2026-05-06T07:08:09.123Z')).toBe('2026-05-06 07:08:09.123 UTC');
      expect(toIso).toHaveBeenCalledTimes(1);
    } finally {
      toIso.mockRestore();
    }
  });

  it('keeps the local and the UTC text of one timestamp apart', () => {
    const iso = '2026-05-06T07:08:11.000Z';
    const utc = formatUtc(iso);
    expect(formatLocal(iso)).not.toBe(utc);
    expect(formatUtc(iso)).toBe(utc);
  });

  it('gives back a value that is not a timestamp as it is', () => {
    expect(formatUtc('not a time')).toBe('not a time');
  });
});
