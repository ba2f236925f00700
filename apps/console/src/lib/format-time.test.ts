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

describe('formatAheadWhenIdle', () => {
  /** Idle callbacks the test runs by hand, each with room for `perSlice` timestamps. */
  function stubIdle(perSlice: number) {
    const queued: ((deadline: { timeRemaining(): number }) => void)[] = [];
    const requestIdleCallback = vi.fn((run: (typeof queued)[number]) => {
      queued.push(run);
      return queued.length;
    });
    vi.stubGlobal('requestIdleCallback', requestIdleCallback);
    const runNext = () => {
      const run = queued.shift();
      let left = perSlice;
      // Each timestamp formatted asks once whether there is time left.
      run?.({ timeRemaining: () => (left-- > 0 ? 10 : 0) });
    };
    return { queued, runNext, requestIdleCallback };
  }

  const stamp = (i: number) => `2026-05-06T07:${String(i).padStart(2, '0')}:00.000Z`;

  it('formats what arrived in idle slices, so showing it later formats nothing', async () => {
    vi.resetModules();
    const idle = stubIdle(3);
    const fresh = await import('./format-time');
    const isos = Array.from({ length: 7 }, (_, i) => stamp(i));
    fresh.formatAheadWhenIdle(isos, (iso) => iso);
    fresh.formatAheadWhenIdle(isos, (iso) => iso);
    expect(idle.requestIdleCallback).toHaveBeenCalledTimes(1);
    for (let slice = 0; slice < 3; slice += 1) idle.runNext();
    expect(idle.queued).toHaveLength(0);

    const format = vi.spyOn(Intl.DateTimeFormat.prototype, 'format' as never, 'get');
    try {
      for (const iso of isos) fresh.formatLocal(iso);
      expect(format).not.toHaveBeenCalled();
      expect(fresh.formatUtc(isos[6] ?? '')).toBe('2026-05-06 07:06:00.000 UTC');
    } finally {
      format.mockRestore();
      vi.unstubAllGlobals();
    }
  });

  it('works through the newest list given, skipping what is formatted already', async () => {
    vi.resetModules();
    const idle = stubIdle(100);
    const fresh = await import('./format-time');
    fresh.formatLocal(stamp(1));
    fresh.formatUtc(stamp(1));
    fresh.formatAheadWhenIdle([{ at: stamp(40) }], (row) => row.at);
    fresh.formatAheadWhenIdle([{ at: stamp(1) }, { at: stamp(2) }], (row) => row.at);
    const format = vi.spyOn(Intl.DateTimeFormat.prototype, 'format' as never, 'get');
    try {
      idle.runNext();
      // Only stamp(2): stamp(1) was formatted, and the older list was replaced.
      expect(format).toHaveBeenCalledTimes(1);
      fresh.formatLocal(stamp(40));
      expect(format).toHaveBeenCalledTimes(2);
    } finally {
      format.mockRestore();
      vi.unstubAllGlobals();
    }
  });

  it('without idle callbacks, formats in short tasks', async () => {
    vi.resetModules();
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    try {
      const fresh = await import('./format-time');
      fresh.formatAheadWhenIdle([stamp(50), stamp(51)], (iso) => iso);
      await vi.runAllTimersAsync();
      const format = vi.spyOn(Intl.DateTimeFormat.prototype, 'format' as never, 'get');
      fresh.formatLocal(stamp(51));
      expect(format).not.toHaveBeenCalled();
      format.mockRestore();
    } finally {
      vi.useRealTimers();
      vi.unstubAllGlobals();
    }
  });
});
