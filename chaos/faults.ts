import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { isAnswer, send } from './bff-client';
import type { BrowserSocket } from './browser-sockets';
import { stepClock, type BffProcess, type Managed } from './processes';
import type { Fault, ReplicaTarget } from './schedule';

/**
 * Injects one scheduled fault into the running stack. Faults with a window undo themselves
 * when it ends; a fault switch the sandbox could not take (it may be down) is retried until it
 * sticks, so no storm outlives its window by more than a restart.
 */

export type Stack = {
  sandbox: Managed;
  bffs: BffProcess[];
  sockets: BrowserSocket[];
  /** Replicas: the database they share (pg-terminate faults); null with one BFF on SQLite. */
  databaseUrl: string | null;
  orgId: string;
  adminToken: string;
  /** The BFF data dir on its own small tmpfs, or null when not root (disk-full is skipped). */
  diskFullDir: string | null;
  /** Lines for the run log. */
  log: (line: string) => void;
};

/**
 * One kill-and-restart at a time per process (two scheduled kills may overlap). Freezes do not
 * queue here: a kill of a frozen process SIGKILLs it, stopped as it is (as an orchestrator ends
 * a hung container), and the freeze's own end then finds nothing to continue.
 */
const busy = new WeakMap<Managed, Promise<void>>();

type FaultPatch = {
  upstreamUnavailableRate?: number | null;
  latencyMs?: number | null;
  duplicateEventRate?: number | null;
  dropSocketEveryMs?: number | null;
};

/**
 * How long a fault switch may take to land. Time-based rather than a count of attempts: two
 * sandbox kills in a row on a loaded machine kept it down for more than 20 s (100 quick refusals),
 * and a switch that never lands is reported as a campaign error.
 */
const FAULT_SWITCH_BUDGET_MS = 120_000;

/** PUT the org's fault switches, retrying while the sandbox is down or restarting. */
export async function setSandboxFaults(stack: Stack, patch: FaultPatch): Promise<void> {
  const deadline = Date.now() + FAULT_SWITCH_BUDGET_MS;
  let last = 'no attempt';
  while (Date.now() < deadline) {
    // A restart under way: the switch can land only once the sandbox is back.
    await busy.get(stack.sandbox);
    const reply = await send(
      stack.sandbox.url,
      'PUT',
      `/sandbox/orgs/${encodeURIComponent(stack.orgId)}/faults`,
      { headers: { authorization: `Bearer ${stack.adminToken}` }, body: patch, timeoutMs: 5_000 },
    );
    if (isAnswer(reply) && reply.status === 200) return;
    last = isAnswer(reply) ? `HTTP ${reply.status} ${reply.text.slice(0, 120)}` : reply.error;
    await sleep(100);
  }
  throw new Error(
    `the sandbox did not take the fault switches ${JSON.stringify(patch)} within ` +
      `${FAULT_SWITCH_BUDGET_MS / 1000} s (last: ${last})`,
  );
}

export const NO_FAULTS: FaultPatch = {
  upstreamUnavailableRate: null,
  latencyMs: null,
  duplicateEventRate: null,
  dropSocketEveryMs: null,
};

/** Resolves once no kill-and-restart of these processes is under way (failed ones included). */
export async function restartsSettled(processes: readonly Managed[]): Promise<void> {
  await Promise.all(processes.map((process) => busy.get(process) ?? Promise.resolve()));
}

export function restart(process: Managed, downMs: number, log: Stack['log']): Promise<void> {
  const previous = busy.get(process) ?? Promise.resolve();
  const next = previous.then(() => killAndStart(process, downMs, log));
  busy.set(
    process,
    next.catch(() => undefined),
  );
  return next;
}

async function killAndStart(process: Managed, downMs: number, log: Stack['log']): Promise<void> {
  await process.kill();
  await sleep(downMs);
  for (let attempt = 1; ; attempt += 1) {
    try {
      await process.start();
      return;
    } catch (error) {
      // The port may still be held a moment after a kill; anything else repeats and is reported.
      log(`${process.name} restart attempt ${attempt} failed: ${String(error)}`);
      if (attempt >= 5) throw error;
      await sleep(500);
    }
  }
}

/**
 * SIGSTOP for durationMs, then SIGCONT, in a finally. A restart under way is waited for first,
 * so the freeze stops the process that serves, not one being replaced. The runner's teardown
 * (stop(), and its exit) continues a frozen process too, so none is left stopped.
 */
async function freeze(process: Managed, durationMs: number, log: Stack['log']): Promise<void> {
  await busy.get(process);
  const resume = process.freeze();
  if (!resume) {
    log(`freeze of ${process.name} skipped: not running`);
    return;
  }
  try {
    await sleep(durationMs);
  } finally {
    resume();
  }
}

/** Fills the tmpfs under the BFF's data dir until the kernel says ENOSPC, for a while. */
async function fillDisk(dir: string, durationMs: number, log: Stack['log']): Promise<void> {
  const ballast = join(dir, 'chaos-ballast');
  const fd = openSync(ballast, 'w');
  const chunk = Buffer.alloc(1024 * 1024, 0x5a);
  let written = 0;
  try {
    for (;;) {
      try {
        written += writeSync(fd, chunk);
      } catch {
        break;
      }
    }
    // Fill the last partial page too (a smaller write may still fit).
    const small = Buffer.alloc(512, 0x5a);
    for (;;) {
      try {
        written += writeSync(fd, small);
      } catch {
        break;
      }
    }
  } finally {
    closeSync(fd);
  }
  log(`disk full: ${written} bytes of ballast`);
  await sleep(durationMs);
  rmSync(ballast, { force: true });
}

/** The replica a fault names; 'leader' is the one streaming now (the first one if none is). */
function replicaOf(stack: Stack, target: ReplicaTarget | undefined): BffProcess | undefined {
  if (target === 'leader') return stack.bffs.find((b) => b.isLeader()) ?? stack.bffs[0];
  return stack.bffs[target ?? 0];
}

/**
 * pg_terminate_backend on the BFFs' connections to their database: the leader's election
 * connection (the one named bff-leader that holds the lock), or every one of them. The campaign's own
 * connection is spared; PostgreSQL's own processes have no database and are not matched.
 */
async function terminateBackends(
  databaseUrl: string,
  target: 'leader-lock' | 'all',
  log: Stack['log'],
): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'chaos' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const sql =
      target === 'leader-lock'
        ? // The election connections are named (cluster/leader.ts); only the leader's holds
          // an advisory lock (event writers' transaction locks are on pooled connections).
          `SELECT DISTINCT a.pid, pg_terminate_backend(a.pid) AS ok
             FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid
             WHERE a.datname = current_database() AND a.application_name = 'bff-leader'
               AND l.locktype = 'advisory' AND l.granted`
        : `SELECT pid, pg_terminate_backend(pid) AS ok FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid()`;
    const { rows } = await client.query<{ pid: number; ok: boolean }>(sql);
    log(`pg-terminate ${target}: ${rows.filter((r) => r.ok).length} backends terminated`);
  } finally {
    await client.end();
  }
}

/** Runs one fault to its end (the window included). */
export async function inject(stack: Stack, fault: Fault): Promise<void> {
  switch (fault.kind) {
    case 'kill-bff': {
      const bff = replicaOf(stack, fault.replica);
      if (bff) {
        if (stack.bffs.length > 1) stack.log(`killing ${bff.name} (leader: ${bff.isLeader()})`);
        await restart(bff, fault.downMs, stack.log);
      }
      return;
    }
    case 'kill-sandbox':
      await restart(stack.sandbox, fault.downMs, stack.log);
      return;
    case 'freeze-bff': {
      const bff = replicaOf(stack, fault.replica);
      if (bff) {
        if (stack.bffs.length > 1) stack.log(`freezing ${bff.name} (leader: ${bff.isLeader()})`);
        await freeze(bff, fault.durationMs, stack.log);
      }
      return;
    }
    case 'freeze-sandbox':
      await freeze(stack.sandbox, fault.durationMs, stack.log);
      return;
    case 'upstream-503':
      await setSandboxFaults(stack, { upstreamUnavailableRate: fault.rate });
      await sleep(fault.durationMs);
      await setSandboxFaults(stack, { upstreamUnavailableRate: null });
      return;
    case 'latency':
      await setSandboxFaults(stack, { latencyMs: fault.latencyMs });
      await sleep(fault.durationMs);
      await setSandboxFaults(stack, { latencyMs: null });
      return;
    case 'duplicate-events':
      await setSandboxFaults(stack, { duplicateEventRate: fault.rate });
      await sleep(fault.durationMs);
      await setSandboxFaults(stack, { duplicateEventRate: null });
      return;
    case 'drop-upstream-socket':
      await setSandboxFaults(stack, { dropSocketEveryMs: fault.everyMs });
      await sleep(fault.durationMs);
      await setSandboxFaults(stack, { dropSocketEveryMs: null });
      return;
    case 'clock-step': {
      const target = fault.target === 'bff' ? replicaOf(stack, fault.replica) : stack.sandbox;
      if (target) stepClock(target, fault.offsetMs);
      return;
    }
    case 'drop-browser-socket':
      stack.sockets[fault.socket]?.drop();
      return;
    case 'stall-browser-socket':
      stack.sockets[fault.socket]?.stall(fault.durationMs);
      await sleep(fault.durationMs);
      return;
    case 'slow-browser-socket':
      stack.sockets[fault.socket]?.slow(fault.durationMs);
      await sleep(fault.durationMs);
      return;
    case 'disk-full':
      if (stack.diskFullDir === null) {
        stack.log('disk-full skipped: not root (mounting a small tmpfs needs root)');
        return;
      }
      await fillDisk(stack.diskFullDir, fault.durationMs, stack.log);
      return;
    case 'pg-terminate':
      if (stack.databaseUrl === null) {
        stack.log('pg-terminate skipped: the BFF is on SQLite');
        return;
      }
      await terminateBackends(stack.databaseUrl, fault.target, stack.log);
      return;
  }
}
