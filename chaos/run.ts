import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { KeysFileSchema } from '@settlement/bff/config';
import { credentialsPath, keysFilePath } from '@settlement/bff/seed-demo';
import { usePostgres, type TestPostgres } from '@settlement/bff/test-postgres';
import { closeAgent, isAnswer, operatorOf, wireSecrets, type Operator } from './bff-client';
import { openBrowserSocket, type BrowserSocket } from './browser-sockets';
import {
  NO_FAULTS,
  inject,
  restart,
  restartsSettled,
  setSandboxFaults,
  type Stack,
} from './faults';
import { createFreezeCheck } from './freeze-check';
import {
  checkDeposits,
  checkLedger,
  checkLogs,
  checkSockets,
  checkUpstreamEvents,
  checkWithdrawals,
  takeSnapshot,
} from './invariants';
import {
  freePort,
  seedDemo,
  startBffProcess,
  startSandboxProcess,
  stepClock,
  type BffProcess,
  type Managed,
} from './processes';
import { readUpstreamEvents } from './upstream-events';
import { BROWSER_SOCKETS, buildSchedule, createRng, describeSchedule } from './schedule';
import {
  createWallet,
  deposit,
  newCampaignLog,
  reviewRequests,
  sendWallet,
  sendWithdrawal,
  step,
  type Operators,
  type WorkloadContext,
} from './workload';

/**
 * The fault campaign: `npm run chaos -- --seed N --minutes M` (or `--short`, the fixed-seed run
 * of `npm run test:chaos`). Starts the sandbox and the BFF as child processes, drives a random
 * workload through the BFF as real operators while injecting the seed's fault schedule, then
 * retries every open operation, lets the chain settle and checks the invariants (invariants.ts).
 * `--replicas N` (N > 1): N BFF processes on one embedded PostgreSQL, every call and browser
 * socket sent to any of them, as a round-robin load balancer would.
 * Exit 0: no invariant broken. Exit 1: the seed and the whole schedule are printed to replay.
 */

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    minutes: { type: 'string' },
    short: { type: 'boolean', default: false },
    replicas: { type: 'string', default: '1' },
    keep: { type: 'boolean', default: false },
  },
});

const seed = values.seed === undefined ? randomBytes(4).readUInt32BE() : Number(values.seed);
if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
  throw new Error('--seed must be an integer in 0..4294967295');
}
const replicas = Number(values.replicas);
if (!Number.isInteger(replicas) || replicas < 1 || replicas > 4) {
  console.error('chaos: --replicas must be a whole number from 1 to 4');
  process.exit(2);
}
const minutes = values.minutes === undefined ? null : Number(values.minutes);
if (minutes !== null && !(minutes > 0)) throw new Error('--minutes must be a positive number');
const durationMs = values.short ? 45_000 : Math.round((minutes ?? 1) * 60_000);
const schedule = buildSchedule({
  seed,
  durationMs,
  meanGapMs: values.short ? 2_500 : 4_000,
  ...(replicas > 1 ? { replicas } : {}),
});

const started = Date.now();
const say = (line: string) => {
  process.stdout.write(`[chaos +${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);
};

const CredentialsSchema = z.object({
  orgId: z.string(),
  operators: z.array(z.object({ username: z.string(), password: z.string() })),
});

async function waitUntil(what: string, probe: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await sleep(250);
  }
  say(`gave up waiting: ${what}`);
  return false;
}

/**
 * The BFF's store grows with the run (events, request log): the tmpfs holds it with room to
 * spare, so the disk is full only while a disk-full fault's ballast fills it.
 */
function mountTmpfs(dir: string, mebibytes: number): boolean {
  if (process.getuid?.() !== 0) {
    say('disk-full faults are skipped: not root (a small tmpfs needs mount)');
    return false;
  }
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mebibytes}m,mode=0700`, 'tmpfs', dir]);
  return true;
}

async function main(): Promise<number> {
  say(
    `seed ${seed}, ${durationMs / 1000} s of workload, ${schedule.length} faults` +
      (replicas > 1 ? `, ${replicas} BFF replicas on PostgreSQL` : ''),
  );
  const runDir = mkdtempSync(join(tmpdir(), `chaos-${seed}-`));
  const dataDir = join(runDir, 'bff-data');
  mkdirSync(dataDir, { recursive: true });
  // Replicas keep their state in PostgreSQL: only the keys and credentials files are in dataDir.
  const isMounted =
    replicas === 1 && mountTmpfs(dataDir, 128 + Math.ceil(durationMs / 60_000) * 96);
  let postgres: TestPostgres | null = null;
  const adminToken = randomBytes(24).toString('hex');
  const sandbox = startSandboxProcess({
    dataDir: join(runDir, 'sandbox-data'),
    runDir,
    port: await freePort(),
    adminToken,
    blockMs: 50,
  });
  const bffs: BffProcess[] = [];
  const sockets: BrowserSocket[] = [];
  // Whichever way the runner ends (an error, process.exit, SIGINT or SIGTERM), no child is left
  // stopped by a freeze: a stopped process would hold its pending signals, SIGTERM included.
  const thawAll = () => {
    for (const managed of [sandbox, ...bffs]) managed.thaw();
  };
  /** Ends the fault schedule and the crash watchdog, once the campaign has started them. */
  let stopFaults: () => void = () => undefined;
  /** Stops the stack and gives back what the run took; once, whoever asks first. */
  let tearingDown: Promise<void> | null = null;
  const tearDown = () =>
    (tearingDown ??= (async () => {
      stopFaults();
      for (const managed of [sandbox, ...bffs]) managed.retire();
      thawAll();
      // A restart under way brings its process up and sees it killed (retired): none is left
      // behind, even when an interrupt ends the run in the middle of the faults.
      await restartsSettled([sandbox, ...bffs]);
      for (const socket of sockets) socket.close();
      for (const managed of [...bffs, sandbox]) await managed.stop().catch(() => undefined);
      await closeAgent();
      if (postgres) {
        await postgres.release().catch((error: unknown) => {
          say(`postgres did not stop: ${String(error)}`);
        });
      }
      if (isMounted) {
        try {
          execFileSync('umount', [dataDir]);
        } catch (error) {
          say(`umount ${dataDir} failed: ${String(error)}`);
        }
      }
    })());
  process.once('exit', thawAll);
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    // Ours alone: the embedded PostgreSQL's exit hook (async-exit-hook, loaded with it) exits
    // the process as soon as its own hook is done, midway through the teardown below, which
    // releases PostgreSQL itself.
    process.removeAllListeners(signal);
    process.once(signal, () => {
      // Interrupted (Ctrl+C): the stack is stopped and the tmpfs unmounted, not left behind; a
      // second signal exits at once.
      say(`${signal}: stopping the stack; logs and data stay in ${runDir}`);
      process.once(signal, () => process.exit(code));
      void tearDown().finally(() => process.exit(code));
    });
  }
  const freezes = createFreezeCheck({ sandbox, bffs });
  const violations: string[] = [];
  const faultErrors: string[] = [];
  try {
    // The embedded PostgreSQL of the BFF's own tests (as root it runs as a `postgres` user it
    // creates, in a /tmp dir of its own), one fresh database for every replica.
    const postgresStarting =
      replicas > 1
        ? usePostgres().then(async (server) => {
            postgres = server;
            return server.createDatabase();
          })
        : Promise.resolve(null);
    await sandbox.start();
    const databaseUrl = await postgresStarting;
    seedDemo({
      dataDir,
      sandboxUrl: sandbox.url,
      adminToken,
      ...(databaseUrl ? { databaseUrl } : {}),
    });
    for (let index = 0; index < replicas; index += 1) {
      bffs.push(
        startBffProcess({
          index,
          dataDir,
          runDir,
          port: await freePort(),
          sandboxUrl: sandbox.url,
          adminToken,
          ...(databaseUrl ? { databaseUrl } : {}),
        }),
      );
    }
    // The seed has migrated the database: the replicas start together.
    await Promise.all(bffs.map((b) => b.start()));
    say(`sandbox ${sandbox.url}, BFF ${bffs.map((b) => b.url).join(' ')}, logs in ${runDir}`);
    // A round-robin balancer without sticky sessions: each call (and each socket connect) goes
    // to the next replica, whether it is up or not; a retry reaches another one.
    let turn = 0;
    const anyBff = () => {
      const next = bffs[turn % bffs.length];
      turn += 1;
      if (!next) throw new Error('no BFF');
      return next.url;
    };

    const credentials = CredentialsSchema.parse(
      JSON.parse(readFileSync(credentialsPath(dataDir), 'utf8')),
    );
    const keys = KeysFileSchema.parse(JSON.parse(readFileSync(keysFilePath(dataDir), 'utf8')));
    const operator = (username: string): Operator => {
      const found = credentials.operators.find((o) => o.username === username);
      if (!found) throw new Error(`no demo operator ${username}`);
      return operatorOf(anyBff, username, found.password, freezes.observe);
    };
    const ops: Operators = {
      admin: operator('admin'),
      admin2: operator('admin2'),
      treasury: operator('treasury'),
      support: operator('support'),
    };
    const log = newCampaignLog();
    const ctx: WorkloadContext = {
      ops,
      record: log,
      rng: createRng(seed ^ 0x5eed),
      orgId: credentials.orgId,
      sandboxUrl: sandbox.url,
      adminToken,
    };
    const stack: Stack = {
      sandbox,
      bffs,
      sockets,
      orgId: credentials.orgId,
      adminToken,
      diskFullDir: isMounted ? dataDir : null,
      databaseUrl,
      log: say,
    };

    // ---- setup, without faults: Co-Signer online, MPC key, accounts, wallets, funds ----
    await ops.admin.call('PUT', '/bff/sandbox/co-signer', { body: { online: true } });
    await ops.admin.call('POST', '/bff/api/v1/mpc/initialize', { operationId: 'chaos-mpc' });
    await waitUntil(
      'MPC key ACTIVE and tron:nile ready',
      async () => {
        const reply = await ops.support.call('GET', '/bff/api/v1/mpc/status');
        const body = isAnswer(reply)
          ? (reply.json as { keyStatus?: string; chains?: { chain: string; ready: boolean }[] })
          : null;
        return (
          body?.keyStatus === 'ACTIVE' &&
          (body.chains ?? []).some((c) => c.chain === 'tron:nile' && c.ready)
        );
      },
      30_000,
    );
    for (let i = 0; i < 2; i += 1) await step({ ...ctx, rng: () => 0 });
    for (let i = 0; i < 3; i += 1) {
      const accountId = log.accounts[i % Math.max(1, log.accounts.length)];
      if (accountId) await createWallet(ctx, accountId, `chaos-setup-wallet-${i}`, 5);
    }
    for (const wallet of log.wallets) await deposit(ctx, wallet.id, 1_000_000_000n);
    let startAfter = '';
    await waitUntil(
      'the first events',
      async () => {
        const reply = await ops.support.call('GET', '/bff/events/history?limit=1');
        const first = isAnswer(reply)
          ? (reply.json as { items?: { id: string }[] }).items?.[0]
          : undefined;
        startAfter = first?.id ?? '';
        return startAfter !== '';
      },
      20_000,
    );
    for (let i = 0; i < BROWSER_SOCKETS; i += 1) {
      sockets.push(
        openBrowserSocket({
          name: `tab-${i}`,
          url: anyBff,
          cookie: () => ops.support.cookie(),
          startAfter,
        }),
      );
    }
    say(`setup done: ${log.accounts.length} accounts, ${log.wallets.length} wallets`);

    // ---- the campaign: actors and faults until the deadline ----
    const t0 = Date.now();
    const deadline = t0 + durationMs;
    const faultsRunning: Promise<void>[] = [];
    const timers = schedule.map(({ atMs, fault }) =>
      setTimeout(() => {
        say(`fault ${fault.kind} ${JSON.stringify(fault)}`);
        faultsRunning.push(
          inject(stack, fault).catch((error: unknown) => {
            faultErrors.push(`${fault.kind} at +${atMs} ms failed: ${String(error)}`);
          }),
        );
      }, atMs),
    );
    // A process that dies on its own is a finding; it is started again so the run goes on.
    const handled = new Map<Managed, number>();
    const watchdog = setInterval(() => {
      for (const managed of [sandbox, ...bffs]) {
        const crashes = managed.crashes.length;
        if (crashes > (handled.get(managed) ?? 0)) {
          handled.set(managed, crashes);
          say(`${managed.name} crashed; restarting`);
          restart(managed, 0, say).catch(() => undefined);
        }
      }
    }, 500);
    stopFaults = () => {
      for (const timer of timers) clearTimeout(timer);
      clearInterval(watchdog);
    };
    const actor = async () => {
      while (Date.now() < deadline) {
        await step(ctx);
        await sleep(Math.floor(ctx.rng() * 150));
      }
    };
    await Promise.all([actor(), actor(), actor()]);
    for (const timer of timers) clearTimeout(timer);
    await Promise.all(faultsRunning);
    clearInterval(watchdog);
    say(`workload done: ${log.withdrawals.length} withdrawals, ${log.deposits.length} deposits`);

    // ---- quiesce: faults off, clocks back, every open operation retried to an answer ----
    for (const managed of [sandbox, ...bffs]) {
      stepClock(managed, 0);
      if (!managed.isRunning()) await restart(managed, 0, say);
    }
    await setSandboxFaults(stack, NO_FAULTS);
    // Side by side: operations a killed replica left pending all wait out the same lease.
    const settling: WorkloadContext = { ...ctx, isSettling: true };
    await Promise.all([
      ...log.withdrawals
        .filter((op) => op.outcome === 'unresolved')
        .map((op) => sendWithdrawal(settling, op, 10)),
      ...log.walletOps
        .filter((op) => op.outcome === 'unresolved')
        .map((op) => sendWallet(settling, op, 10)),
    ]);
    say('every open operation has its answer');
    await reviewRequests(ctx, true);
    // By status: the unfiltered list holds only the newest 200 requests.
    const isSettled = async () => {
      for (const status of ['APPROVED', 'AWAITING_APPROVAL']) {
        const reply = await ops.support.call('GET', `/bff/withdrawal-requests?status=${status}`);
        if (!isAnswer(reply) || reply.status !== 200) return false;
        const items = (reply.json as { items?: unknown[] }).items;
        if ((items ?? []).length > 0) return false;
      }
      return true;
    };
    if (!(await waitUntil('approved requests submitted', isSettled, 10_000))) {
      // The sweep that resumes APPROVED requests backs off to once a minute while the upstream
      // keeps failing, as it did through the faults: a restart (a deploy) runs it now.
      say('restarting the BFF gracefully so its sweep resumes approved requests');
      for (const bff of bffs) {
        await bff.stop();
        await bff.start();
      }
      await reviewRequests(ctx, true);
      await waitUntil('approved requests submitted after the sweep', isSettled, 20_000);
    }
    // Every PENDING one, not the newest page: a transaction created while the sandbox's clock
    // was stepped sorts among older ones, and becomes due only when that clock passes its
    // creation time again (up to the largest step, 120 s, after the clocks are reset).
    await waitUntil(
      'every transaction terminal',
      async () => {
        const reply = await ops.support.call(
          'GET',
          '/bff/api/v1/transactions?status=PENDING&limit=1',
        );
        const items =
          isAnswer(reply) && reply.status === 200
            ? (reply.json as { items?: unknown[] }).items
            : null;
        return items !== null && items !== undefined && items.length === 0;
      },
      180_000,
    );
    say('waited for every transaction to be terminal');
    const newest = async () => {
      const reply = await ops.support.call('GET', '/bff/events/history?limit=1');
      return isAnswer(reply)
        ? ((reply.json as { items?: { id: string }[] }).items?.[0]?.id ?? '')
        : '';
    };
    await waitUntil(
      'every browser tab caught up',
      async () => {
        const last = await newest();
        return sockets.every((socket) => socket.lastId() === last);
      },
      30_000,
    );

    // ---- the invariants ----
    const snap = await takeSnapshot(ops.support, ops.treasury, log);
    violations.push(...checkWithdrawals(log, snap));
    violations.push(...checkDeposits(log, snap));
    violations.push(...checkLedger(snap));
    violations.push(...checkSockets(sockets, snap));
    const eventsKey = keys.keys.find((k) => k.name === 'events');
    if (eventsKey) {
      const upstream = await readUpstreamEvents({
        wsUrl: `${sandbox.url.replace(/^http/, 'ws')}/v1/ws`,
        orgId: credentials.orgId,
        keyId: eventsKey.keyId,
        seed: eventsKey.seed,
        quietMs: 1_500,
        timeoutMs: 30_000,
      });
      violations.push(...checkUpstreamEvents(upstream, snap));
    }
    violations.push(...log.anomalies);
    violations.push(...faultErrors);
    for (const managed of [sandbox, ...bffs]) violations.push(...managed.crashes);
    const outcomes = new Map<string, number>();
    for (const op of log.withdrawals) {
      const key = op.refusal?.code ? `${op.outcome}:${op.refusal.code}` : op.outcome;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    }
    say(
      `checked ${log.withdrawals.length} withdrawals (${[...outcomes].map(([k, n]) => `${k} ${n}`).join(', ')}), ` +
        `${log.deposits.length} deposits, ${snap.transactions.length} transactions, ` +
        `${log.internalErrors.length} retryable 500s, ` +
        `${snap.events.length} events, sockets ${sockets
          .map(
            (s) =>
              `${s.name}: ${s.seen.length} seen, ${s.connects} connects, ${s.duplicates} dupes dropped`,
          )
          .join('; ')}`,
    );
    say(freezes.summary());
    violations.push(...freezes.problems);
    for (const socket of sockets) socket.close();
    for (const bff of bffs) await bff.stop();
    await sandbox.stop();
    const secrets = [
      adminToken,
      ...credentials.operators.map((o) => o.password),
      ...keys.keys.map((k) => k.seed),
      ...wireSecrets,
    ];
    violations.push(...checkLogs([sandbox.logFile, ...bffs.map((b) => b.logFile)], secrets));
  } catch (error) {
    violations.push(
      `the campaign itself failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  } finally {
    await tearDown();
    if (violations.length === 0 && !values.keep) rmSync(runDir, { recursive: true, force: true });
  }
  if (violations.length === 0) {
    say(`PASS: seed ${seed}, no invariant broken`);
    return 0;
  }
  say(`FAIL: ${violations.length} violations`);
  for (const line of violations) process.stdout.write(`  - ${line}\n`);
  process.stdout.write(
    `\nReplay: npm run chaos -- --seed ${seed} ${values.short ? '--short' : `--minutes ${String(minutes ?? 1)}`}` +
      `${replicas > 1 ? ` --replicas ${replicas}` : ''}\n` +
      `Fault schedule of seed ${seed}:\n${describeSchedule(schedule)}\n`,
  );
  return 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
