import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync, type WriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '@settlement/http-server/node-flags';
import { spawnSandbox } from '@settlement/sandbox/spawn';
import { UPSTREAM_TIMEOUT_MS } from './schedule';

/**
 * The stack as child processes, so a fault can SIGKILL one and start it again on the same port
 * and data dir, or SIGSTOP it for a while: the sandbox (through @settlement/sandbox/spawn) and
 * the BFF (as scripts/start.mjs runs apps/bff/src/main.ts), each node itself, no shell between,
 * so a signal reaches the server. Each child's stdout and stderr go to its log file, which the
 * secret scan reads at the end. Both preload chaos/clock-offset.ts, so a fault can step them.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLOCK_PRELOAD = join(ROOT, 'chaos', 'clock-offset.ts');
const BFF_MAIN = join(ROOT, 'apps', 'bff', 'src', 'main.ts');
const SEED_DEMO = join(ROOT, 'apps', 'bff', 'src', 'cli', 'seed-demo.ts');
const BFF_READY = 'bff listening on ';

/** When a process was stopped, on the runner's performance.now(); `toMs` null while it is. */
export type FrozenSpan = { fromMs: number; toMs: number | null };

export type Managed = {
  name: string;
  url: string;
  logFile: string;
  clockFile: string;
  /** True while it is frozen too: alive, holding its connections. */
  isRunning(): boolean;
  start(): Promise<void>;
  /** SIGKILL, resolved once the process is gone (a frozen one too). */
  kill(): Promise<void>;
  /** SIGTERM (graceful), SIGKILL after 5 s; a frozen process is continued to take the SIGTERM. */
  stop(): Promise<void>;
  /**
   * SIGSTOP to the running child; the function returned continues that very child (once; later
   * calls do nothing). Overlapping freezes hold it stopped until the last one ends; a kill or
   * a stop ends them all. Null when no child is running.
   */
  freeze(): (() => void) | null;
  /** SIGCONT now if frozen, whatever holds it: the runner's way out, synchronous. */
  thaw(): void;
  /**
   * The run is ending: no more freezes, and a child a restart still under way brings up is
   * killed as soon as it is up, so none outlives the runner.
   */
  retire(): void;
  /** Every freeze so far, for the freeze check. */
  frozen: FrozenSpan[];
  /** Exits nobody asked for (a crash), with their code or signal. */
  crashes: string[];
};

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => {
      done();
    });
  });
}

const isAlive = (child: ChildProcess | null): child is ChildProcess =>
  child !== null && child.exitCode === null && child.signalCode === null;

/**
 * Tracks one child at a time; an exit the campaign did not cause is recorded as a crash. Signals
 * go through the ChildProcess, which sends none once the child was reaped: never to a reused pid.
 */
function supervise(name: string, logFile: string, clockFile: string, url: string) {
  let child: ChildProcess | null = null;
  let expected = false;
  let isRetired = false;
  const crashes: string[] = [];
  const frozen: FrozenSpan[] = [];
  // The child that freezes hold stopped, and how many hold it.
  let stopped: { child: ChildProcess; holds: number; span: FrozenSpan } | null = null;
  const thaw = () => {
    if (!stopped) return;
    const { child: held, span } = stopped;
    stopped = null;
    span.toMs = performance.now();
    if (isAlive(held)) held.kill('SIGCONT');
  };
  const freeze = () => {
    const current = child;
    if (isRetired || !isAlive(current)) return null;
    if (stopped?.child !== current) {
      if (!current.kill('SIGSTOP')) return null;
      const span: FrozenSpan = { fromMs: performance.now(), toMs: null };
      frozen.push(span);
      stopped = { child: current, holds: 0, span };
    }
    stopped.holds += 1;
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      // Killed meanwhile (its freezes ended with it), or already continued by thaw().
      if (stopped?.child !== current) return;
      stopped.holds -= 1;
      if (stopped.holds === 0) thaw();
    };
  };
  const adopt = (next: ChildProcess) => {
    thaw(); // a stopped child that died some other way: its span ends here
    child = next;
    expected = isRetired;
    next.once('exit', (code, signal) => {
      if (!expected) crashes.push(`${name} exited on its own (${signal ?? String(code)})`);
    });
    if (isRetired) next.kill('SIGKILL');
  };
  const end = async (signal: NodeJS.Signals) => {
    const current = child;
    if (!isAlive(current)) return;
    expected = true;
    current.kill(signal);
    // A stopped process takes no signal but SIGKILL until it is continued: the SIGTERM waits
    // for this SIGCONT (sent after it, so a SIGKILL'd one runs no further instruction).
    if (stopped?.child === current) thaw();
    const timer =
      signal === 'SIGTERM' ? setTimeout(() => current.kill('SIGKILL'), 5_000) : undefined;
    await exitOf(current);
    clearTimeout(timer);
  };
  return {
    adopt,
    base: {
      name,
      url,
      logFile,
      clockFile,
      crashes,
      frozen,
      isRunning: () => isAlive(child),
      kill: () => end('SIGKILL'),
      stop: () => end('SIGTERM'),
      freeze,
      thaw,
      retire: () => {
        isRetired = true;
      },
    },
  };
}

export function startSandboxProcess(input: {
  dataDir: string;
  runDir: string;
  port: number;
  adminToken: string;
  blockMs: number;
}): Managed {
  const logFile = join(input.runDir, 'sandbox.log');
  const clockFile = join(input.runDir, 'sandbox.clock');
  writeFileSync(clockFile, '0');
  const log: WriteStream = createWriteStream(logFile, { flags: 'a' });
  const url = `http://127.0.0.1:${input.port}`;
  const { adopt, base } = supervise('sandbox', logFile, clockFile, url);
  // spawnSandbox passes this process's environment on (it takes no env of its own); the BFF
  // child sets its own clock file over it.
  process.env.CHAOS_CLOCK_FILE = clockFile;
  return {
    ...base,
    async start() {
      const spawned = await spawnSandbox({
        dataDir: input.dataDir,
        port: input.port,
        blockMs: input.blockMs,
        adminToken: input.adminToken,
        logLevel: 'info',
        output: log,
        // spawnSandbox puts these before its own `--import tsx`; ours needs tsx first.
        nodeArgs: ['--import', 'tsx', '--import', CLOCK_PRELOAD],
        readyTimeoutMs: 60_000,
      });
      adopt(spawned.child);
    },
  };
}

/** The demo seed as start.mjs runs it; its stdout (the passwords, printed once) is dropped. */
export function seedDemo(input: {
  dataDir: string;
  sandboxUrl: string;
  adminToken: string;
  /** Replicas: the stores on PostgreSQL (the keys and credentials files stay in dataDir). */
  databaseUrl?: string;
}) {
  const seeded = spawnSync(process.execPath, ['--import', 'tsx', SEED_DEMO], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      SANDBOX_URL: input.sandboxUrl,
      SANDBOX_ADMIN_TOKEN: input.adminToken,
      DATA_DIR: input.dataDir,
      ...(input.databaseUrl ? { DATABASE_URL: input.databaseUrl } : {}),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (seeded.status !== 0) throw new Error(`demo seeding failed: ${seeded.stderr}`);
}

/** A BFF child; with replicas, whether it holds the upstream stream (from its own log lines). */
export type BffProcess = Managed & { isLeader(): boolean };

export function startBffProcess(input: {
  index: number;
  dataDir: string;
  runDir: string;
  port: number;
  sandboxUrl: string;
  adminToken: string;
  /** Replicas share one PostgreSQL; without it the BFF keeps SQLite in dataDir. */
  databaseUrl?: string;
}): BffProcess {
  const name = `bff-${input.index}`;
  const logFile = join(input.runDir, `${name}.log`);
  const clockFile = join(input.runDir, `${name}.clock`);
  writeFileSync(clockFile, '0');
  const consoleDist = join(input.runDir, 'console-dist');
  mkdirSync(consoleDist, { recursive: true });
  writeFileSync(join(consoleDist, 'index.html'), '<!doctype html><div id="root"></div>');
  const log = createWriteStream(logFile, { flags: 'a' });
  const url = `http://127.0.0.1:${input.port}`;
  const { adopt, base } = supervise(name, logFile, clockFile, url);
  // The leader logs each change of lead (cluster/leader.ts); a new process starts as follower.
  let isLeader = false;
  return {
    ...base,
    isLeader: () => isLeader && base.isRunning(),
    async start() {
      isLeader = false;
      const child = spawn(
        process.execPath,
        [...SERVER_NODE_FLAGS, '--import', 'tsx', '--import', CLOCK_PRELOAD, BFF_MAIN],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            CHAOS_CLOCK_FILE: clockFile,
            PORT: String(input.port),
            DATA_DIR: input.dataDir,
            UPSTREAM_URL: input.sandboxUrl,
            SANDBOX_URL: input.sandboxUrl,
            SANDBOX_ADMIN_TOKEN: input.adminToken,
            CONSOLE_DIST: consoleDist,
            // Request logs too: the secret scan reads every line the BFF writes.
            LOG_LEVEL: 'info',
            UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
            ...(input.databaseUrl ? { DATABASE_URL: input.databaseUrl } : {}),
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      child.stdout.pipe(log, { end: false });
      child.stderr.pipe(log, { end: false });
      adopt(child);
      let partial = '';
      child.stdout.on('data', (chunk: Buffer) => {
        const lines = (partial + chunk.toString('utf8')).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          if (line.includes('took the upstream lead')) isLeader = true;
          else if (line.includes('lost the upstream lead')) isLeader = false;
        }
      });
      await new Promise<void>((done, fail) => {
        let seen = '';
        const timer = setTimeout(() => {
          fail(new Error(`${name} did not listen within 60 s`));
        }, 60_000);
        const onData = (chunk: Buffer) => {
          seen = (seen + chunk.toString('utf8')).slice(-4_000);
          if (seen.includes(BFF_READY)) {
            clearTimeout(timer);
            child.stdout.off('data', onData);
            done();
          }
        };
        child.stdout.on('data', onData);
        child.once('exit', (code, signal) => {
          clearTimeout(timer);
          fail(new Error(`${name} exited (${signal ?? String(code)}) before it listened`));
        });
      });
    },
  };
}

/** Writes the wall-clock offset a child's preload reads (within 100 ms). */
export function stepClock(process: Managed, offsetMs: number): void {
  writeFileSync(process.clockFile, String(offsetMs));
}
