import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadKeys } from '../config';
import { DEMO_POLICY } from '../governance/demo-policy';
import { createPolicyStore } from '../governance/policy-store';
import { openDb } from '../store/db';
import { startSandbox, type SandboxProcess } from '../test-support/harness';
import { credentialsPath, keysFilePath, seedDemo } from './seed-demo';
import { tempDir } from '../test-support/temp-dirs';

let sandbox: SandboxProcess;

beforeAll(async () => {
  sandbox = await startSandbox();
}, 60_000);

afterAll(async () => {
  await sandbox.stop();
});

describe('seedDemo', () => {
  it('creates least-privilege keys and four operators once, with 0600 files, and is idempotent', async () => {
    const dataDir = tempDir('bff-seed-');
    const input = { sandboxUrl: sandbox.url, adminToken: sandbox.adminToken, dataDir };
    const first = await seedDemo(input);
    expect(first.isNew).toBe(true);
    expect(first.credentials?.operators.map((o) => [o.username, o.role])).toEqual([
      ['admin', 'admin'],
      ['admin2', 'admin'],
      ['treasury', 'treasury'],
      ['support', 'support'],
    ]);
    const keys = loadKeys(keysFilePath(dataDir));
    expect(keys.orgId).toBe(first.credentials?.orgId);
    expect(keys.keys.map((k) => [k.name, k.scopes])).toEqual([
      ['reader', ['wallets:read', 'accounts:read', 'transactions:read', 'mpc:read']],
      ['treasury', ['wallets:create', 'withdrawals:create']],
      ['mpc-admin', ['mpc:initialize']],
      ['events', ['websockets:read']],
    ]);
    expect(statSync(keysFilePath(dataDir)).mode & 0o777).toBe(0o600);
    expect(statSync(credentialsPath(dataDir)).mode & 0o777).toBe(0o600);

    const keysBefore = readFileSync(keysFilePath(dataDir), 'utf8');
    const second = await seedDemo(input);
    expect(second).toEqual({ isNew: false, credentials: first.credentials });
    expect(readFileSync(keysFilePath(dataDir), 'utf8')).toBe(keysBefore);

    const db = openDb(join(dataDir, 'bff', 'bff.db'));
    try {
      const policies = createPolicyStore(db);
      expect((await policies.versions()).map((p) => [p.version, p.createdBy])).toEqual([
        [1, 'seed'],
      ]);
      expect((await policies.current())?.rules).toEqual(DEMO_POLICY.rules);
    } finally {
      await db.close();
    }
  });
});
