import { describe, expect, it } from 'vitest';
import { createCsvCounter, formatBytes } from './csv-progress';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('createCsvCounter', () => {
  it('counts data rows without the header, across chunk boundaries that split a CRLF', () => {
    const counter = createCsvCounter();
    counter.add(bytes('id,amount\r\ntx_1,1.5\r'));
    expect(counter.progress()).toMatchObject({ rows: 0, isAtRecordEnd: false });
    expect(counter.add(bytes('\ntx_2,2\r\n'))).toEqual({
      rows: 2,
      bytes: 29,
      isAtRecordEnd: true,
    });
  });

  it('does not count a line break inside a quoted cell (also split between chunks) as a row', () => {
    const counter = createCsvCounter();
    counter.add(bytes('id,detail\r\n1,"line one\r'));
    counter.add(bytes('\nline ""two"""\r\n2,"é"\r\n'));
    expect(counter.progress()).toMatchObject({ rows: 2, isAtRecordEnd: true });
  });

  it('reports a stream cut inside a quoted cell or mid-row as not at a record end', () => {
    const counter = createCsvCounter();
    expect(counter.add(bytes('id\r\n"abc\r\n')).isAtRecordEnd).toBe(false);
    expect(createCsvCounter().add(bytes('id\r\ntx_1')).isAtRecordEnd).toBe(false);
    expect(createCsvCounter().progress().isAtRecordEnd).toBe(false);
  });
});

describe('formatBytes', () => {
  it('uses decimal units', () => {
    expect(formatBytes(12)).toBe('12 B');
    expect(formatBytes(340_000)).toBe('340.0 kB');
    expect(formatBytes(1_200_000)).toBe('1.2 MB');
  });
});
