import { describe, expect, it, vi } from 'vitest';
import { createIdRandomness, timeOrderedHex, timeOrderedId } from './ids';

const COUNT = 10_000;
const millisOf = (id: string) => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);

describe('time-ordered ids', () => {
  it('are UUIDv7: version 7, RFC 9562 variant, the current time in the first 48 bits', () => {
    const before = Date.now();
    const id = timeOrderedId();
    const after = Date.now();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(millisOf(id)).toBeGreaterThanOrEqual(before);
    expect(millisOf(id)).toBeLessThanOrEqual(after);
  });

  it('sort by the millisecond they were made in, and are all distinct', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const ids: string[] = [];
      for (let i = 0; i < COUNT; i += 1) {
        // Ten ids per millisecond, the clock moving forward between them.
        if (i % 10 === 0) vi.advanceTimersByTime(1);
        ids.push(timeOrderedId());
      }
      const sorted = [...ids].sort();
      expect(sorted.map(millisOf)).toEqual(ids.map(millisOf));
      expect(new Set(ids).size).toBe(COUNT);
    } finally {
      vi.useRealTimers();
    }
  });

  it('as hex: 32 lowercase digits, the same order', () => {
    const nonces = Array.from({ length: 1_000 }, () => timeOrderedHex());
    for (const nonce of nonces) expect(nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(nonces).size).toBe(nonces.length);
    const millis = nonces.map((n) => Number.parseInt(n.slice(0, 12), 16));
    expect([...millis].sort((a, b) => a - b)).toEqual(millis);
  });

  it('take their random bits from the CSPRNG once per batch, each byte for one id only', () => {
    let round = 0;
    const fill = vi.fn((buffer: Uint8Array) => {
      round += 1;
      // Every 16-byte cut of a round differs, and so does every round.
      for (let i = 0; i < buffer.length; i += 1) buffer[i] = (i * 7 + round * 13) & 0xff;
    });
    const random = createIdRandomness(64, fill);
    const cuts = Array.from({ length: 640 }, random);
    expect(fill).toHaveBeenCalledTimes(10);
    expect(cuts.every((cut) => cut.length === 16)).toBe(true);
    // A cut is a copy: refilling the pool later does not change an id made before.
    const first = Array.from(cuts[0] ?? []);
    random();
    expect(Array.from(cuts[0] ?? [])).toEqual(first);
    const ids = cuts.map((cut) => timeOrderedId(() => cut));
    expect(ids.every((id) => /^[0-9a-f-]{36}$/.test(id))).toBe(true);
  });
});
