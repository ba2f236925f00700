import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { heapSizingProblem } from './heap-sizing';
import { SERVER_NODE_FLAGS } from './node-flags.mjs';

const MIB = 1024 * 1024;
const REPO = resolve(import.meta.dirname, '../../..');

/** The young generation's size in a fresh node process started with `flags`. */
function newSpaceOfNode(flags: readonly string[]): number {
  const child = spawnSync(
    process.execPath,
    [
      ...flags,
      '-e',
      "process.stdout.write(String(require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size))",
    ],
    { encoding: 'utf8' },
  );
  expect(child.status, child.stderr).toBe(0);
  return Number(child.stdout);
}

describe('SERVER_NODE_FLAGS', () => {
  it('give a fresh node process a 16 MiB young generation (1 MiB without them)', () => {
    expect(newSpaceOfNode(SERVER_NODE_FLAGS)).toBe(16 * MIB);
    expect(newSpaceOfNode([])).toBeLessThan(16 * MIB);
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

  it('names the flags a process was started without', () => {
    expect(heapSizingProblem([])).toBe(
      "node was started without --min-semi-space-size=16 --max-semi-space-size=32: the young generation stays small and requests under load wait for the old generation's collections (start it as npm start does)",
    );
    expect(heapSizingProblem(['--max-semi-space-size=32'])).toMatch(
      /^node was started without --min-semi-space-size=16:/,
    );
  });
});
