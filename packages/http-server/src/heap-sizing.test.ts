import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { heapSizingProblem } from './heap-sizing';
import { SERVER_NODE_FLAGS } from './node-flags.mjs';

const MIB = 1024 * 1024;
const REPO = resolve(import.meta.dirname, '../../..');

/**
 * One semi-space's capacity, in MiB, in a fresh node process started with `flags`, after it
 * kept a million objects alive at a time when `isBusy` (what makes V8 grow the space).
 */
function semiSpaceOfNode(flags: readonly string[], isBusy = false): number {
  const work = isBusy
    ? "const kept = []; for (let i = 0; i < 4e6; i += 1) { kept.push({ i, s: 'x' + i }); if (kept.length > 1e6) kept.length = 0; }"
    : '';
  const child = spawnSync(
    process.execPath,
    [
      ...flags,
      '-e',
      `${work} const s = require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space'); process.stdout.write(String(s.space_used_size + s.space_available_size))`,
    ],
    { encoding: 'utf8' },
  );
  expect(child.status, child.stderr).toBe(0);
  return Number(child.stdout) / MIB;
}

describe('SERVER_NODE_FLAGS', () => {
  it('give a fresh node process 16 MiB semi-spaces (1 MiB without them)', () => {
    expect(semiSpaceOfNode(SERVER_NODE_FLAGS)).toBeGreaterThan(15);
    expect(semiSpaceOfNode(SERVER_NODE_FLAGS)).toBeLessThanOrEqual(16);
    expect(semiSpaceOfNode([])).toBeLessThanOrEqual(1);
  });

  it('keep them at 16 MiB when many objects survive, where a higher maximum lets them grow', () => {
    expect(semiSpaceOfNode(SERVER_NODE_FLAGS, true)).toBeLessThanOrEqual(16);
    expect(
      semiSpaceOfNode(['--min-semi-space-size=16', '--max-semi-space-size=32'], true),
    ).toBeGreaterThan(16);
  });

  it.each(['apps/bff', 'apps/sandbox'])(
    "are on the node command line of %s's own start script",
    (app) => {
      const manifest = JSON.parse(readFileSync(resolve(REPO, app, 'package.json'), 'utf8')) as {
        scripts: { start: string };
      };
      expect(manifest.scripts.start).toBe(
        `node ${SERVER_NODE_FLAGS.join(' ')} --import tsx src/main.ts`,
      );
    },
  );
});

describe('heapSizingProblem', () => {
  it('is silent when every flag is on the command line, in any order among others', () => {
    expect(heapSizingProblem(['--cpu-prof', ...[...SERVER_NODE_FLAGS].reverse()])).toBeNull();
  });

  it('reads the other spellings V8 accepts: underscores, and the value as its own argument', () => {
    expect(
      heapSizingProblem(['--min_semi_space_size=16', '--max-semi-space-size', '16']),
    ).toBeNull();
  });

  it('accepts a young generation set larger on purpose, and takes the last of a repeated flag', () => {
    expect(heapSizingProblem(['--min-semi-space-size=32', '--max-semi-space-size=64'])).toBeNull();
    expect(
      heapSizingProblem([...SERVER_NODE_FLAGS, '--min-semi-space-size=1', '--cpu-prof']),
    ).toMatch(/^node was started without --min-semi-space-size=16:/);
  });

  it('names the flags a process was started without or with smaller', () => {
    expect(heapSizingProblem(['--min-semi-space-size=8', '--max-semi-space-size=16'])).toMatch(
      /^node was started without --min-semi-space-size=16:/,
    );
    expect(heapSizingProblem(['--max-semi-space-size', '--cpu-prof'])).toMatch(
      /without --min-semi-space-size=16 --max-semi-space-size=16:/,
    );
    expect(heapSizingProblem([])).toBe(
      "node was started without --min-semi-space-size=16 --max-semi-space-size=16: the young generation stays small and requests under load wait for the old generation's collections (start it as npm start does)",
    );
    expect(heapSizingProblem(['--max-semi-space-size=16'])).toMatch(
      /^node was started without --min-semi-space-size=16:/,
    );
  });
});
