import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '@settlement/http-server/node-flags';

/**
 * The one way to run a sandbox as its own process and wait until it serves: the BFF's tests
 * and the bench use it (`@settlement/sandbox/spawn`). It lives beside main.ts because it
 * speaks main.ts's process interface (flags, env, the ready line); it imports none of the
 * sandbox's code. The e2e journeys start the whole stack through scripts/start.mjs instead.
 */

const SRC = dirname(fileURLToPath(import.meta.url));
const MAIN = resolve(SRC, 'main.ts');

/** main.ts prints this, then its base URL, once it listens. */
export const READY_PREFIX = 'sandbox listening on ';

export type SpawnSandboxOptions = {
  dataDir: string;
  /** 0 (the default) lets the OS pick a free port; the URL comes from the ready line. */
  port?: number;
  blockMs?: number;
  /** Defaults to a fresh random token. */
  adminToken?: string;
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Receives the child's stdout and stderr (e.g. a log file); otherwise they are drained. */
  output?: Writable;
  /** Node flags after the servers' own (SERVER_NODE_FLAGS), e.g. --cpu-prof. */
  nodeArgs?: string[];
  readyTimeoutMs?: number;
};

export type SpawnedSandbox = {
  url: string;
  port: number;
  dataDir: string;
  adminToken: string;
  child: ChildProcess;
  /** SIGTERM (graceful), SIGKILL if it is still running 5 s later; resolves once it exited. */
  stop(): Promise<void>;
};

export async function spawnSandbox(options: SpawnSandboxOptions): Promise<SpawnedSandbox> {
  const adminToken = options.adminToken ?? randomBytes(24).toString('hex');
  const dataDir = resolve(options.dataDir);
  const child = spawn(
    process.execPath,
    [
      ...SERVER_NODE_FLAGS,
      ...(options.nodeArgs ?? []),
      '--import',
      'tsx',
      MAIN,
      '--port',
      String(options.port ?? 0),
      '--data',
      dataDir,
      '--block-ms',
      String(options.blockMs ?? 20),
    ],
    {
      // The sandbox package: `--import tsx` resolves from here, whoever calls.
      cwd: resolve(SRC, '..'),
      env: {
        ...process.env,
        SANDBOX_ADMIN_TOKEN: adminToken,
        LOG_LEVEL: options.logLevel ?? 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolveExit) => {
    child.once('exit', () => {
      resolveExit();
    });
  });
  let stderrTail = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-4_000);
  });
  if (options.output) {
    child.stdout.pipe(options.output, { end: false });
    child.stderr.pipe(options.output, { end: false });
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
  };
  try {
    const url = await readyUrl(child, options.readyTimeoutMs ?? 30_000, () => stderrTail);
    return {
      url,
      port: Number(new URL(url).port),
      dataDir,
      adminToken,
      child,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Resolves with the base URL of the ready line; rejects if the child exits or stays silent. */
function readyUrl(child: ChildProcess, timeoutMs: number, stderr: () => string): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    let seen = '';
    const finish = (error: Error | null, url = '') => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolveUrl(url);
    };
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString('utf8')).slice(-4_000);
      const at = seen.indexOf(READY_PREFIX);
      const end = seen.indexOf('\n', at);
      if (at >= 0 && end > at) finish(null, seen.slice(at + READY_PREFIX.length, end).trim());
    };
    const onExit = (code: number | null, signal: string | null) => {
      finish(
        new Error(`the sandbox exited (${signal ?? String(code)}) before it listened: ${stderr()}`),
      );
    };
    const timer = setTimeout(() => {
      finish(new Error(`the sandbox did not listen within ${timeoutMs} ms: ${stderr()}`));
    }, timeoutMs);
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
    // Without a reader the pipes fill up and the child blocks on its own logging.
    child.stdout?.resume();
    child.stderr?.resume();
  });
}
