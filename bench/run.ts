import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, freemem, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBffOverhead } from './groups/bff-overhead';
import { runConsole } from './groups/console';
import { runExports } from './groups/exports';
import { runRelay } from './groups/relay';
import { runReplicas } from './groups/replicas';
import { runSandbox } from './groups/sandbox';
import { runSearch } from './groups/search';
import { runSigning } from './groups/signing';
import { renderChart } from './lib/chart';
import { ROOT, killAllChildren, stopAllChildren, trace } from './lib/procs';
import { GroupRecorder, formatGroup, type GroupResult } from './lib/report';

/**
 * `npm run bench [-- --quick] [-- --only=signing,bff,relay,sandbox,console,exports,replicas,search]`: eight groups, each
 * with its reference measured side by side in the same run; a table on stdout and JSON in
 * bench/results/<timestamp>.json. Everything binds 127.0.0.1, runs bounded and stops itself.
 */

export type BenchContext = {
  isQuick: boolean;
  /** A temp directory for this run's data dirs and logs (removed at the end). */
  workDir: string;
};

type Group = {
  id: string;
  title: string;
  run: (ctx: BenchContext, rec: GroupRecorder) => Promise<void>;
};

const GROUPS: Group[] = [
  {
    id: 'signing',
    title: '1. Signing: protocol (noble), node:crypto, the BFF signer (libsodium)',
    run: runSigning,
  },
  {
    id: 'bff',
    title: '2. BFF overhead: signed GETs via BFF vs direct vs pass-through',
    run: runBffOverhead,
  },
  { id: 'relay', title: '3. Event relay: BFF vs the fastest ws fan-out', run: runRelay },
  { id: 'sandbox', title: '4. Sandbox: signed requests and withdrawals', run: runSandbox },
  {
    id: 'console',
    title: '5. Console: bundle, Lighthouse, 10k-row list, live feed',
    run: runConsole,
  },
  {
    id: 'exports',
    title: '6. Exports: transactions CSV (100,000 rows, 20,000 in --quick), BFF memory above idle',
    run: runExports,
  },
  {
    id: 'replicas',
    title: '7. BFF on SQLite vs PostgreSQL, 1 vs 2 replicas: throughput and relay latency',
    run: runReplicas,
  },
  {
    id: 'search',
    title: "8. Support's event search: the key table vs reading every event, as stored events grow",
    run: runSearch,
  },
];

function parseArgs(argv: string[]): { isQuick: boolean; only: Set<string> | null } {
  let isQuick = false;
  let only: Set<string> | null = null;
  for (const arg of argv) {
    if (arg === '--quick') isQuick = true;
    else if (arg.startsWith('--only=')) only = new Set(arg.slice('--only='.length).split(','));
    else throw new Error(`unknown argument ${arg} (use --quick, --only=a,b)`);
  }
  return { isQuick, only };
}

/** Every group's charts as `<dir>/<chart id>.svg`; returns the files written. */
function writeCharts(results: readonly GroupResult[], dir: string): string[] {
  const files: string[] = [];
  for (const chart of results.flatMap((r) => r.charts)) {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${chart.id}.svg`);
    writeFileSync(file, renderChart(chart));
    files.push(file);
  }
  return files;
}

function machine() {
  const cpu = cpus();
  return {
    cpuModel: cpu[0]?.model ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    freeMemoryGiB: Math.round(freemem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

async function main(): Promise<void> {
  const { isQuick, only } = parseArgs(process.argv.slice(2));
  // Safety nets only: a quick run is sized to finish inside 2 minutes in all, a full run's
  // groups each inside 10 (a full run draws curves up to 1,000 sockets and 1,000,000 rows, and
  // soaks the relay for 5 minutes, so it is run in the background).
  const budgetMs = isQuick ? 170_000 : 600_000;
  let watchdog: NodeJS.Timeout | undefined;
  const arm = (what: string): void => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      process.stderr.write(`bench: ${what} over its ${budgetMs / 1000} s budget; stopping.\n`);
      killAllChildren();
      process.exit(2);
    }, budgetMs);
    watchdog.unref();
  };
  arm(isQuick ? 'the quick run' : 'start-up');
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killAllChildren();
      process.exit(130);
    });
  }

  const workDir = mkdtempSync(join(tmpdir(), 'settlement-bench-'));
  const ctx: BenchContext = { isQuick, workDir };
  const started = Date.now();
  const info = machine();
  process.stdout.write(
    `settlement bench (${isQuick ? 'quick' : 'full'}) on ${info.cpuModel}, ${info.cores} cores, ` +
      `${info.memoryGiB} GiB, Node ${info.node}\n`,
  );
  const results: GroupResult[] = [];
  try {
    for (const group of GROUPS) {
      if (only && !only.has(group.id)) continue;
      if (!isQuick) arm(`group ${group.id}`);
      trace(`group ${group.id}: starting`);
      const rec = new GroupRecorder();
      const groupStarted = performance.now();
      let error: string | null = null;
      try {
        await group.run(ctx, rec);
      } catch (caught) {
        error = caught instanceof Error ? (caught.stack ?? caught.message) : String(caught);
      }
      trace(`group ${group.id}: stopping its servers`);
      await stopAllChildren();
      trace(`group ${group.id}: done`);
      const result: GroupResult = {
        id: group.id,
        title: group.title,
        rows: rec.rows,
        notes: rec.notes,
        charts: rec.charts,
        durationMs: performance.now() - groupStarted,
        error,
      };
      results.push(result);
      process.stdout.write(`${formatGroup(result)}\n`);
    }
  } finally {
    killAllChildren();
    rmSync(workDir, { recursive: true, force: true });
  }

  const resultsDir = join(ROOT, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date(started).toISOString().replace(/[:.]/g, '-');
  const file = join(resultsDir, `${stamp}${isQuick ? '-quick' : ''}.json`);
  const totalMs = Date.now() - started;
  writeFileSync(
    file,
    `${JSON.stringify({ startedAt: new Date(started).toISOString(), mode: isQuick ? 'quick' : 'full', totalMs, machine: info, groups: results }, null, 2)}\n`,
  );
  const charts = writeCharts(
    results,
    join(resultsDir, `${stamp}${isQuick ? '-quick' : ''}-charts`),
  );
  // A full run's charts are the ones BENCHMARKS.md shows; a quick run never replaces them.
  if (!isQuick && charts.length > 0) writeCharts(results, join(ROOT, 'docs', 'bench'));
  process.stdout.write(`\nTotal ${(totalMs / 1000).toFixed(1)} s. Results: ${file}\n`);
  const failed = results.filter((r) => r.error !== null);
  process.exitCode = failed.length > 0 ? 1 : 0;
}

main().then(
  () => {
    // Lingering keep-alive sockets must not hold the bench open.
    process.exit(process.exitCode ?? 0);
  },
  (error: unknown) => {
    killAllChildren();
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
