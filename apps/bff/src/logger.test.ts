import { spawn } from 'node:child_process';
import fs, { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { createLogDestination, createLogger, fixedFieldLogger } from './logger';
import { tempDir } from './test-support/temp-dirs';
import { captureLogLines as capture } from './test-support/log-lines';

describe('logger', () => {
  it('censors secret fields on the main logger, at the top level and one level down', () => {
    const { lines, sink } = capture();
    const logger = createLogger('info', sink);
    logger.info({ password: 'hunter2', operator: { sessionId: 'sid' } }, 'login');
    expect(lines[0]).toMatchObject({
      password: '[redacted]',
      operator: { sessionId: '[redacted]' },
      msg: 'login',
      service: 'bff',
    });
  });

  it('writes the fixed-field lines as given, at the parent level, and reuses one child per logger', () => {
    const { lines, sink } = capture();
    const logger = createLogger('warn', sink);
    const fixed = fixedFieldLogger(logger);
    expect(fixedFieldLogger(logger)).toBe(fixed);
    fixed.info({ method: 'GET', status: 200 }, 'request');
    fixed.warn({ method: 'GET', path: '/bff/api/v1/transactions', status: 503 }, 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      service: 'bff',
      method: 'GET',
      path: '/bff/api/v1/transactions',
      status: 503,
      msg: 'request',
    });
  });
});

describe('log destination', () => {
  it('writes lines in batches, and a lone line within the flush period', async () => {
    const dir = tempDir('bff-log-');
    const file = join(dir, 'out.log');
    const writes = vi.spyOn(fs, 'write');
    const destination = createLogDestination(file);
    try {
      await new Promise<void>((resolve) => {
        (destination as unknown as NodeJS.EventEmitter).once('ready', () => {
          resolve();
        });
      });
      const logger = fixedFieldLogger(createLogger('info', destination));
      for (let i = 0; i < 20; i += 1) logger.info({ i, path: '/bff/api/v1/x' }, 'request');
      // 20 lines of ~100 bytes: under the batch size, so nothing is written yet.
      expect(writes).not.toHaveBeenCalled();
      await expect
        .poll(() => readFileSync(file, 'utf8').split('\n').filter(Boolean).length, {
          timeout: 5_000,
        })
        .toBe(20);
      expect(writes.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      writes.mockRestore();
      destination.flushSync();
      (destination as unknown as { end(): void }).end();
    }
  });
});

/**
 * A child process with the BFF's log destination and crash handling (as main.ts sets them up)
 * logs a few lines, which stay in the unwritten batch, and then crashes as `crash` says.
 */
function crashChild(crash: 'throw' | 'reject', secret: string) {
  const here = dirname(fileURLToPath(import.meta.url));
  const file = join(tempDir('bff-crash-'), 'out.log');
  const script = `
    const [file, crash, secret] = process.argv.slice(1);
    import(${JSON.stringify(join(here, 'logger.ts'))}).then((m) => {
      const destination = m.createLogDestination(file);
      const logger = m.createLogger('info', destination);
      m.exitOnCrash(logger, destination);
      destination.on('ready', () => {
        for (let i = 0; i < 5; i += 1) logger.info({ i }, 'before the crash');
        const error = Object.assign(new Error('boom'), { password: secret });
        setTimeout(() => {
          if (crash === 'throw') throw error;
          void Promise.reject(error);
        }, 0);
      });
    });`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script, file, crash, secret], {
    cwd: here,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise<{ code: number | null; lines: Record<string, unknown>[]; text: string }>(
    (resolve) => {
      child.once('exit', (code) => {
        const text = readFileSync(file, 'utf8');
        const lines = text
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        resolve({ code, lines, text: text + stderr });
      });
    },
  );
}

describe('a crash of the process', () => {
  it.each([
    ['throw', 'uncaught exception'],
    ['reject', 'unhandled rejection'],
  ] as const)(
    'on %s: the batched lines, then one fatal line without secrets, then exit code 1',
    async (crash, msg) => {
      const secret = 'crash-test-secret-5f1d';
      const { code, lines, text } = await crashChild(crash, secret);
      expect(code).toBe(1);
      expect(lines.map((line) => line.msg)).toEqual([...Array(5).fill('before the crash'), msg]);
      expect(lines[5]).toMatchObject({
        level: 60,
        err: { message: 'boom', password: '[redacted]' },
      });
      expect(text).not.toContain(secret);
    },
  );
});
