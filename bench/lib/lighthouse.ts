import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { startTasks, type StartTasks } from './trace-tasks';

export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export type LighthouseResult = {
  performance: number | null;
  accessibility: number | null;
  metrics: Record<string, number | null>;
  /** The page's main-thread tasks after its first paint, from the run's trace. */
  startTasks: StartTasks | null;
  /** Titles of the audits scoring below 0.9, per category. */
  failedAudits: { performance: string[]; accessibility: string[] };
  error: string | null;
};

type Lhr = {
  runtimeError?: { message?: string };
  categories: Record<string, { score: number | null; auditRefs: { id: string }[] }>;
  audits: Record<string, { score: number | null; numericValue?: number; title: string }>;
};

/**
 * Lighthouse (npm, default mobile preset with simulated throttling) in Debian's Chromium,
 * offline against 127.0.0.1. `headers` (e.g. the session cookie) go with every request.
 *
 * `blankPage`: where Lighthouse parks the tab before the measured navigation (its default is
 * about:blank). Give it a page of the measured origin that sends the same
 * Cross-Origin-Opener-Policy. From about:blank, the BFF's `COOP: same-origin` makes Chromium
 * swap browsing instance, so the measured navigation commits in a renderer process started
 * after tracing began; on a busy machine that process joined the trace too late, its
 * `navigationStart` was missing and Lighthouse gave up with NO_NAVSTART (reproduced 1 in 4
 * runs with two busy cores; every run swapped process). From a same-origin page the navigation
 * stays in the renderer that was traced from the start. Lantern's simulation ignores the
 * warmed connection (it models every origin's first request on a new one).
 */
export async function runLighthouse(input: {
  url: string;
  headers: Record<string, string>;
  workDir: string;
  name: string;
  timeoutMs: number;
  blankPage?: string;
  /** A folder to keep the report, its trace and its DevTools log in (BENCH_PROFILE=1). */
  keepIn?: string | null;
}): Promise<LighthouseResult> {
  const output = join(input.workDir, `lighthouse-${input.name}.json`);
  const headersFile = join(input.workDir, `lighthouse-${input.name}-headers.json`);
  writeFileSync(headersFile, JSON.stringify(input.headers));
  const configFile = join(input.workDir, `lighthouse-${input.name}-config.json`);
  writeFileSync(
    configFile,
    JSON.stringify({
      extends: 'lighthouse:default',
      settings: input.blankPage ? { blankPage: input.blankPage } : {},
    }),
  );
  const args = [
    // The CLI, resolved as a dependency of bench (it has no exports map, so the file path is public).
    createRequire(import.meta.url).resolve('lighthouse/cli/index.js'),
    input.url,
    '--output=json',
    `--output-path=${output}`,
    '--only-categories=performance,accessibility',
    `--extra-headers=${headersFile}`,
    `--config-path=${configFile}`,
    `--chrome-flags=--headless=new ${CHROMIUM_ARGS.join(' ')}`,
    '--quiet',
    // The trace beside the report: its tasks are read below (startTasks).
    '--save-assets',
  ];
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, CHROME_PATH: CHROMIUM },
      stdio: 'ignore',
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), input.timeoutMs);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  const traceFile = output.replace(/\.json$/, '-0.trace.json');
  let tasks: StartTasks | null = null;
  try {
    const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as
      { traceEvents: Parameters<typeof startTasks>[0] } | Parameters<typeof startTasks>[0];
    tasks = startTasks('traceEvents' in trace ? trace.traceEvents : trace, input.url);
  } catch {
    // No trace (Lighthouse failed): the report below says why.
  }
  if (input.keepIn) {
    for (const suffix of ['.json', '-0.trace.json', '-0.devtoolslog.json']) {
      const file = output.replace(/\.json$/, suffix);
      if (existsSync(file)) cpSync(file, join(input.keepIn, basename(file)));
    }
  }
  let lhr: Lhr;
  try {
    lhr = JSON.parse(readFileSync(output, 'utf8')) as Lhr;
  } catch {
    return {
      performance: null,
      accessibility: null,
      metrics: {},
      startTasks: tasks,
      failedAudits: { performance: [], accessibility: [] },
      error: `lighthouse exited ${String(code)} without a report`,
    };
  }
  const score = (id: string) => {
    const value = lhr.categories[id]?.score;
    return value === null || value === undefined ? null : Math.round(value * 100);
  };
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? null;
  const failed = (category: string) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .map((r) => r.id)
      .filter((id) => {
        const audit = lhr.audits[id];
        return audit?.score !== null && audit?.score !== undefined && audit.score < 0.9;
      })
      .map((id) => lhr.audits[id]?.title ?? id);
  const failedAudits = {
    performance: failed('performance'),
    accessibility: failed('accessibility'),
  };
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    metrics: {
      fcpMs: metric('first-contentful-paint'),
      lcpMs: metric('largest-contentful-paint'),
      tbtMs: metric('total-blocking-time'),
      cls: metric('cumulative-layout-shift'),
    },
    startTasks: tasks,
    failedAudits,
    error: lhr.runtimeError?.message ?? null,
  };
}
