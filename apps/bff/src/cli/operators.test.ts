import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../services/passwords';
import { openDb } from '../store/db';
import { createOperatorStore } from '../store/operators';

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), 'operators.ts');

function run(dataDir: string, args: string[], input?: string) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    input: input ?? '',
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('operators CLI', () => {
  it('adds, lists and resets operators with scrypt hashes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bff-cli-'));
    const added = run(
      dataDir,
      ['add', 'alice', '--role', 'treasury', '--password-stdin'],
      'correct horse battery\n',
    );
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).not.toContain('correct horse');
    const generated = run(dataDir, ['add', 'bob', '--role', 'support']);
    expect(generated.status).toBe(0);
    const password = /password: (\S+)/.exec(generated.stdout)?.[1] ?? '';
    expect(password).toHaveLength(24);
    expect(run(dataDir, ['list']).stdout).toBe('alice\ttreasury\nbob\tsupport\n');
    expect(run(dataDir, ['add', 'alice', '--role', 'admin']).status).toBe(1);
    expect(run(dataDir, ['add', 'carol', '--role', 'root']).stderr).toContain('--role');
    const reset = run(dataDir, ['reset-password', 'alice']);
    expect(reset.status).toBe(0);
    const newPassword = /password: (\S+)/.exec(reset.stdout)?.[1] ?? '';

    const db = openDb(join(dataDir, 'bff', 'bff.db'));
    try {
      const operators = createOperatorStore(db);
      const alice = operators.findByUsername('alice');
      const bob = operators.findByUsername('bob');
      expect(alice?.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$/);
      expect(await verifyPassword(newPassword, alice?.passwordHash ?? '')).toBe(true);
      expect(await verifyPassword('correct horse battery', alice?.passwordHash ?? '')).toBe(false);
      expect(await verifyPassword(password, bob?.passwordHash ?? '')).toBe(true);
    } finally {
      db.close();
    }
  }, 30_000);
});
