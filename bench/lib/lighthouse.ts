import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

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
 */
export async function runLighthouse(input: {
  url: string;
  headers: Record<string, string>;
  workDir: string;
  name: string;
  timeoutMs: number;
}): Promise<LighthouseResult> {
  const output = join(input.workDir, `lighthouse-${input.name}.json`);
  const headersFile = join(input.workDir, `lighthouse-${input.name}-headers.json`);
  writeFileSync(headersFile, JSON.stringify(input.headers));
  const args = [
    // The CLI, resolved as a dependency of bench (it has no exports map, so the file path is public).
    createRequire(import.meta.url).resolve('lighthouse/cli/index.js'),
    input.url,
    '--output=json',
    `--output-path=${output}`,
    '--only-categories=performance,accessibility',
    `--extra-headers=${headersFile}`,
    `--chrome-flags=--headless=new ${CHROMIUM_ARGS.join(' ')}`,
    '--quiet',
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
  let lhr: Lhr;
  try {
    lhr = JSON.parse(readFileSync(output, 'utf8')) as Lhr;
  } catch {
    return {
      performance: null,
      accessibility: null,
      metrics: {},
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
    failedAudits,
    error: lhr.runtimeError?.message ?? null,
  };
}
