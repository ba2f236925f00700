import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const tsxCli = require.resolve('tsx/cli');
const mainFile = fileURLToPath(new URL('./main.ts', import.meta.url));
const ADMIN = 'main-test-admin-token-0123456789';

/** Starts the real entry point; resolves with the child and its printed base URL. */
function start(dataDir: string) {
  const child = spawn(process.execPath, [tsxCli, mainFile, '--port', '0', '--data', dataDir], {
    env: { ...process.env, SANDBOX_ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /^sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code) => {
      reject(new Error(`exited ${code}: ${out}`));
    });
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      resolve(code);
    });
  });
  return { child, url, exited };
}

describe('main', () => {
  it('prints the listening line, keeps data across a restart and exits 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-main-'));
    const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
    try {
      const first = start(dataDir);
      const base = await first.url;
      const created = await fetch(`${base}/sandbox/orgs`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: 'Persisted' }),
      });
      const { orgId } = (await created.json()) as { orgId: string };
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);

      const second = start(dataDir);
      const base2 = await second.url;
      const faults = await fetch(`${base2}/sandbox/orgs/${orgId}/faults`, { headers: admin });
      expect(faults.status).toBe(200);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
