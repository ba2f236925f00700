import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../services/passwords';
import { openDb } from '../store/db';
import { createOperatorStore } from '../store/operators';
import { tempDir } from '../test-support/temp-dirs';

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
    const dataDir = tempDir('bff-cli-');
    const added = run(
      dataDir,
      ['add', 'alice', '--role', 'treasury', '--password-stdin'],
      'amber kettle orbits a silent glacier\n',
    );
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).not.toContain('amber kettle');
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
      const alice = await operators.findByUsername('alice');
      const bob = await operators.findByUsername('bob');
      expect(alice?.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$/);
      expect(await verifyPassword(newPassword, alice?.passwordHash ?? '')).toBe(true);
      expect(
        await verifyPassword('amber kettle orbits a silent glacier', alice?.passwordHash ?? ''),
      ).toBe(false);
      expect(await verifyPassword(password, bob?.passwordHash ?? '')).toBe(true);
    } finally {
      await db.close();
    }
  }, 30_000);

  it('refuses a password from stdin that the BFF would refuse, and stores nothing', () => {
    const dataDir = tempDir('bff-cli-');
    const cases: [string[], string, string][] = [
      [['add', 'dave', '--role', 'admin', '--password-stdin'], 'short pass\n', 'at least 12'],
      [['add', 'dave', '--role', 'admin', '--password-stdin'], 'password1234\n', 'too easy'],
      [['add', 'dave', '--role', 'admin', '--password-stdin'], 'qwertyuiop123\n', 'too easy'],
      // The username is context: "dave" plus a common word is guessable for dave.
      [['add', 'dave', '--role', 'admin', '--password-stdin'], 'davedavedave1\n', 'too easy'],
    ];
    for (const [args, input, why] of cases) {
      const refused = run(dataDir, args, input);
      expect(refused.status, input).toBe(1);
      expect(refused.stderr).toContain('password refused');
      expect(refused.stderr).toContain(why);
      expect(refused.stderr).not.toContain(input.trim());
    }
    expect(run(dataDir, ['list']).stdout).toBe('');

    const strong = 'violet lantern drifts over quiet harbor';
    expect(
      run(dataDir, ['add', 'dave', '--role', 'admin', '--password-stdin'], strong).status,
    ).toBe(0);
    const weakReset = run(dataDir, ['reset-password', 'dave', '--password-stdin'], 'password1234');
    expect(weakReset.status).toBe(1);
    expect(weakReset.stderr).toContain('too easy');
  }, 60_000);
});
