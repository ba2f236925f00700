import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sleep } from './procs';
import { startStallProbe, stallsText, type StallProbe } from './stall-probe';

describe('startStallProbe', () => {
  let probe: StallProbe | null = null;
  afterEach(async () => {
    await probe?.child.stop();
    probe = null;
  });

  it('reports the time its process was kept from running, in the window it fell in', async () => {
    probe = startStallProbe(join(mkdtempSync(join(tmpdir(), 'stall-probe-')), 'probe.log'));
    await sleep(300);
    const before = Date.now();
    // As the machine would: the probe's process gets no core for 200 ms.
    process.kill(probe.child.pid, 'SIGSTOP');
    await sleep(200);
    process.kill(probe.child.pid, 'SIGCONT');
    await sleep(300);
    const stalls = probe.between(before - 50, Date.now());
    expect(stalls.count).toBeGreaterThanOrEqual(1);
    expect(stalls.longestMs).toBeGreaterThanOrEqual(150);
    expect(probe.between(before - 10_000, before - 5_000).count).toBe(0);
  });
});

describe('stallsText', () => {
  it('says how many, the longest and the sum, or that there were none', () => {
    expect(stallsText({ count: 0, longestMs: 0, totalMs: 0 })).toBe('no stall over 8 ms');
    expect(stallsText({ count: 3, longestMs: 25.7, totalMs: 71.2 })).toBe(
      '3 stall(s) over 8 ms, longest 26 ms, 71 ms in all',
    );
  });
});
