import { describe, expect, it } from 'vitest';
import { LATE_ARRIVAL_WINDOW_MS, abandonableAt } from './abandon-window';

const NOW = 1_800_000_000_000;
const seconds = (ms: number) => String(Math.floor(ms / 1_000));

describe('abandonableAt', () => {
  it('is safe at once when every attempt got an answer, even a 503', () => {
    const attempts = [
      { at: NOW - 1_000, status: 503, signedTimestamp: seconds(NOW - 1_000) },
      { at: NOW - 500, status: 503, signedTimestamp: seconds(NOW - 500) },
    ];
    expect(abandonableAt(attempts, NOW)).toBeNull();
  });

  it('waits out the late-arrival window of an attempt that got no answer', () => {
    const signedAt = NOW - 10_000;
    const attempts = [
      { at: signedAt, status: null, signedTimestamp: seconds(signedAt) },
      { at: NOW - 2_000, status: 503, signedTimestamp: seconds(NOW - 2_000) },
    ];
    expect(abandonableAt(attempts, NOW)).toBe(signedAt + LATE_ARRIVAL_WINDOW_MS);
    expect(abandonableAt(attempts, signedAt + LATE_ARRIVAL_WINDOW_MS)).toBeNull();
  });

  it('takes the latest unanswered attempt, and its start when the timestamp is unknown', () => {
    const attempts = [
      { at: NOW - 60_000, status: null, signedTimestamp: seconds(NOW - 60_000) },
      { at: NOW - 5_000, status: null, signedTimestamp: null },
    ];
    expect(abandonableAt(attempts, NOW)).toBe(NOW - 5_000 + LATE_ARRIVAL_WINDOW_MS);
  });
});
