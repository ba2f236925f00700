import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Test support only: temporary directories that outlive a single test (a BFF restarted over the
 * same data dir, a log read after its process ended) and are removed once the file's tests are
 * done (setup-temp-dirs.ts), instead of being left in the system's temp dir by every run.
 */

const created = new Set<string>();

/** A new directory under the system's temp dir, removed after the test file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.add(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
  created.clear();
}
