import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { SERVER_NODE_FLAGS } from '@settlement/http-server/node-flags';

/** The repository root (bench/lib/ is two levels below it). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A free TCP port on 127.0.0.1 (asked of the OS, then released for the child to take). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => {
        resolvePort(port);
      });
    });
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls `url` until it answers any HTTP status below 500 (or throws after timeoutMs). */
export async function waitForHttp(url: string, what: string, timeoutMs = 30_000): Promise<void> {
  trace(`${what}: waiting`);
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const response = await request(url, { signal: AbortSignal.timeout(1_000) });
      await response.body.dump();
      if (response.statusCode < 500) {
        trace(`${what}: answering`);
        return;
      }
      last = `status ${response.statusCode}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(100);
  }
  throw new Error(`${what} did not answer at ${url} within ${timeoutMs} ms (${last})`);
}

export type Child = {
  name: string;
  pid: number;
  logFile: string;
  /** Resident set size in MiB, read from /proc (null once the process is gone). */
  rssMb(): number | null;
  /** CPU time (user + system) in ms, read from /proc (null once the process is gone). */
  cpuMs(): number | null;
  stop(): Promise<void>;
};

const CLOCK_TICKS_PER_S = 100;

function readProc(pid: number, file: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return null;
  }
}

const children = new Set<ChildProcess>();
const running = new Set<Child>();

/** Stops (SIGTERM, then SIGKILL after 5 s) every child still running: the end of a group. */
export async function stopAllChildren(): Promise<void> {
  await Promise.all([...running].map((child) => child.stop()));
}

/** Ends every child still running (used when the bench is interrupted). */
export function killAllChildren(): void {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
}

/**
 * Runs a TypeScript server under tsx in its own process (its own core to contend for), with
 * the V8 flags our servers ship with (the references too, so a ratio compares code, not heap
 * settings), stdout and stderr to `logFile`. Stops with SIGTERM, then SIGKILL after 5 s.
 */
export function spawnTs(input: {
  name: string;
  script: string;
  args?: string[];
  env?: Record<string, string>;
  logFile: string;
  /** Extra node flags, e.g. --cpu-prof (BENCH_PROFILE=1 adds it to the servers measured). */
  nodeArgs?: string[];
}): Child {
  const fd = openSync(input.logFile, 'a');
  const child = spawn(
    process.execPath,
    [
      ...SERVER_NODE_FLAGS,
      ...(input.nodeArgs ?? []),
      '--import',
      'tsx',
      resolve(ROOT, input.script),
      ...(input.args ?? []),
    ],
    { cwd: ROOT, env: { ...process.env, ...input.env }, stdio: ['ignore', fd, fd] },
  );
  closeSync(fd);
  return trackChild(input.name, child, input.logFile);
}

/**
 * Watches a child started elsewhere (e.g. by spawnSandbox) like one of ours: its RSS and CPU
 * time are measured, and the end of a group or an interrupted bench stops it.
 */
export function trackChild(name: string, child: ChildProcess, logFile: string): Child {
  children.add(child);
  const exited = new Promise<void>((r) => {
    child.once('exit', () => {
      children.delete(child);
      r();
    });
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${name} did not start`);
  const handle: Child = {
    name,
    pid,
    logFile,
    rssMb() {
      const status = readProc(pid, 'status');
      const match = status ? /VmRSS:\s+(\d+) kB/.exec(status) : null;
      return match?.[1] ? Number(match[1]) / 1024 : null;
    },
    cpuMs() {
      const stat = readProc(pid, 'stat');
      if (!stat) return null;
      // Fields after the command name (which may contain spaces) start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      return (ticks * 1000) / CLOCK_TICKS_PER_S;
    },
    async stop() {
      running.delete(handle);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(handle);
  return handle;
}

/** Where profiles of `name` go when BENCH_PROFILE=1 (created), else null. */
export function profileDir(name: string): string | null {
  if (process.env.BENCH_PROFILE !== '1') return null;
  const dir = resolve(
    process.env.BENCH_PROFILE_DIR ?? resolve(ROOT, 'bench/results/profiles'),
    name,
  );
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Node flags that write a CPU profile of a server into its profileDir when BENCH_PROFILE=1. */
export function profileArgs(name: string): string[] {
  const dir = profileDir(name);
  return dir === null ? [] : ['--cpu-prof', `--cpu-prof-dir=${dir}`];
}

const TRACE_ORIGIN = performance.now();

/**
 * BENCH_TRACE=1: one stderr line per step between the measurements (a server spawned, seeded,
 * answering; a group started, stopped), seconds since the bench began: where a run's time goes
 * that is not measuring (what keeps `--quick` inside CI's two minutes).
 */
export function trace(step: string): void {
  if (process.env.BENCH_TRACE !== '1') return;
  const seconds = ((performance.now() - TRACE_ORIGIN) / 1000).toFixed(2);
  process.stderr.write(`[${seconds} s] ${step}\n`);
}
