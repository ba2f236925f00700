import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, ensureAdminToken, loadConfig } from './config';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('reads --port, --data and --block-ms, with defaults', () => {
    const config = loadConfig(['--port', '4011', '--data', '/tmp/x', '--block-ms', '250'], {});
    expect(config).toMatchObject({ port: 4011, dataDir: '/tmp/x', blockMs: 250 });
    expect(loadConfig([], {})).toMatchObject({ port: 4010, blockMs: 1000 });
    expect(loadConfig(['--data', 'rel/dir'], { INIT_CWD: '/srv/app' }).dataDir).toBe(
      '/srv/app/rel/dir',
    );
  });

  it('names every bad key at once', () => {
    let message = '';
    try {
      loadConfig(['--port', 'abc', '--block-ms', '0'], { SANDBOX_ADMIN_TOKEN: 'short' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/--port/);
    expect(message).toMatch(/--block-ms/);
    expect(message).toMatch(/SANDBOX_ADMIN_TOKEN/);
    expect(() => loadConfig(['--unknown', '1'], {})).toThrow(ConfigError);
  });
});

describe('ensureAdminToken', () => {
  it('uses the configured token without touching the directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-config-'));
    dirs.push(dir);
    expect(ensureAdminToken(dir, 'configured-token-123456')).toBe('configured-token-123456');
    expect(() => statSync(join(dir, 'admin-token'))).toThrow();
  });

  it('generates a token into DIR/admin-token with mode 0600 and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-config-'));
    dirs.push(dir);
    const token = ensureAdminToken(join(dir, 'data'), undefined);
    const file = join(dir, 'data', 'admin-token');
    expect(readFileSync(file, 'utf8').trim()).toBe(token);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(ensureAdminToken(join(dir, 'data'), undefined)).toBe(token);
  });
});
