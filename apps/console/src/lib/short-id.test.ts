import { describe, expect, it } from 'vitest';
import { shortId } from './short-id';

describe('shortId', () => {
  it('keeps both ends of a random id, a hash or an address', () => {
    expect(shortId('3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f')).toBe('3f2b8c1e…3d4e5f');
    expect(shortId('TXYZabcdefghijklmnopqrstuvwxyz1234')).toBe('TXYZabcd…yz1234');
  });

  it('shows the random tail of time-ordered ids, whose heads are the same clock', () => {
    const minted = [
      '019af7a2-3c41-7d10-8a2b-5f6e7d8c9b0a',
      '019af7a2-3c41-7d11-9c3d-1a2b3c4d5e6f',
      '019AF7A2-3C52-7000-B111-AABBCCDDEEFF',
    ];
    expect(minted.map(shortId)).toEqual(['…5f6e7d8c9b0a', '…1a2b3c4d5e6f', '…AABBCCDDEEFF']);
    // The head form would have shown two of them alike.
    expect(new Set(minted.map((id) => id.slice(0, 8).toLowerCase())).size).toBe(1);
  });

  it('leaves short values whole', () => {
    expect(shortId('ref-1')).toBe('ref-1');
    expect(shortId('0123456789abcdef')).toBe('0123456789abcdef');
  });
});
