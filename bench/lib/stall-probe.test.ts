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

  it('reports the time its process was kept from running, in the round it fell in', async () => {
    const started = startStallProbe(join(mkdtempSync(join(tmpdir(), 'stall-probe-')), 'p.log'));
    probe = started;
    // No head start: the first round waits for the probe to be timing, however slow its start.
    const before = Date.now();
    await started.timed('quiet', () => sleep(100));
    // As the machine would: the probe's process gets no core for 200 ms.
    await started.timed('stopped', async () => {
      process.kill(started.child.pid, 'SIGSTOP');
      await sleep(200);
      process.kill(started.child.pid, 'SIGCONT');
      await sleep(100);
    });
    await started.settle();
    const stalls = started.between(before, Date.now());
    expect(stalls.count).toBeGreaterThanOrEqual(1);
    expect(stalls.longestMs).toBeGreaterThanOrEqual(150);
    // The stop is in its own round only (a quiet round may meet a real stall of the machine).
    const longestOf = (text: string) => Number(/longest (\d+) ms/.exec(text)?.[1] ?? 0);
    expect(longestOf(started.roundsText('stopped'))).toBeGreaterThanOrEqual(150);
    expect(longestOf(started.roundsText('quiet'))).toBeLessThan(150);
  });

  it('does not call a round quiet when the probe was no longer running', async () => {
    const started = startStallProbe(join(mkdtempSync(join(tmpdir(), 'stall-probe-')), 'p.log'));
    probe = started;
    await sleep(200);
    await started.child.stop();
    await started.timed('after', () => sleep(50));
    expect(started.roundsText('after')).toBe('the probe was not running');
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
