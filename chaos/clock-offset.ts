import { readFileSync } from 'node:fs';

/**
 * Preloaded (`--import`) into a child process of the campaign to step its wall clock: Date.now
 * returns the real time plus the offset (ms) written to the file named by CHAOS_CLOCK_FILE.
 * Monotonic time (performance.now, timers) is left alone, as a real NTP step leaves it.
 * Signatures, session and nonce windows all read Date.now, so they see the step.
 */
const file = process.env.CHAOS_CLOCK_FILE;
if (file) {
  const realNow = Date.now.bind(Date);
  let offsetMs = 0;
  const read = () => {
    try {
      const value = Number(readFileSync(file, 'utf8').trim());
      offsetMs = Number.isFinite(value) ? value : 0;
    } catch {
      offsetMs = 0;
    }
  };
  read();
  setInterval(read, 100).unref();
  Date.now = () => realNow() + offsetMs;
}
