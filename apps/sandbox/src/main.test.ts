import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnSandbox } from './spawn';

const ADMIN = 'main-test-admin-token-0123456789';

describe('main (run through spawnSandbox)', () => {
  it('prints the listening line, keeps data across a restart and exits 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-main-'));
    const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
    try {
      const first = await spawnSandbox({ dataDir, adminToken: ADMIN });
      expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(first.url).toBe(`http://127.0.0.1:${first.port}`);
      const created = await fetch(`${first.url}/sandbox/orgs`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: 'Persisted' }),
      });
      const { orgId } = (await created.json()) as { orgId: string };
      await first.stop();
      expect(first.child.exitCode).toBe(0);

      const second = await spawnSandbox({ dataDir, adminToken: ADMIN });
      const faults = await fetch(`${second.url}/sandbox/orgs/${orgId}/faults`, { headers: admin });
      expect(faults.status).toBe(200);
      await second.stop();
      expect(second.child.exitCode).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);

  it('fails fast with the reason when the sandbox cannot start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-main-'));
    try {
      await expect(spawnSandbox({ dataDir, adminToken: 'short' })).rejects.toThrow(
        /exited \(1\) before it listened: .*SANDBOX_ADMIN_TOKEN/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
