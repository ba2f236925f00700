#!/usr/bin/env node
// Proves the layer rules in eslint.config.js bite: plants one violation of each kind in a
// throw-away file beside real code, lints it with the project's own config, and fails unless
// every plant is refused by `no-restricted-imports`. The plants are removed whatever happens.
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tag = `planted-boundary-${process.pid}`;

/** [what the rule forbids, where the plant goes, the offending import] */
const PLANTS = [
  ['an app imports another app', 'apps/bff/src', "import '../../sandbox/src/app';"],
  ['an app imports another app by name', 'apps/sandbox/src', "import '@settlement/bff';"],
  [
    'a feature imports another feature',
    'apps/console/src/features/accounts/components',
    "import '../../wallets/api/keys';",
  ],
  ['lib/ imports a feature', 'apps/console/src/lib', "import '../features/accounts/api/keys';"],
  [
    'components/ imports a feature',
    'apps/console/src/components/ui',
    "import '../../features/accounts/api/keys';",
  ],
  ['the console signs', 'apps/console/src/lib', "import '@settlement/protocol/signing';"],
  ['protocol imports Node', 'packages/protocol/src', "import 'node:crypto';"],
  ['protocol imports Node without the prefix', 'packages/protocol/src', "import 'fs';"],
  ['protocol imports React', 'packages/protocol/src', "import 'react';"],
  ['protocol imports Express', 'packages/protocol/src', "import 'express';"],
  ['protocol imports classic zod', 'packages/protocol/src/bff', "import 'zod';"],
  ['the console imports classic zod', 'apps/console/src/features/accounts/model', "import 'zod';"],
  ['bench reaches into an app', 'bench/lib', "import '../../apps/bff/src/app';"],
  ['e2e reaches into an app', 'e2e', "import '../apps/sandbox/src/app';"],
];

const files = PLANTS.map(([, dir], index) => join(root, dir, `${tag}-${index}.ts`));
try {
  PLANTS.forEach(([, , source], index) => writeFileSync(files[index], `${source}\n`));
  const results = await new ESLint({ cwd: root }).lintFiles(files);
  const missed = PLANTS.filter((_, index) => {
    const result = results.find((r) => r.filePath === files[index]);
    return !result?.messages.some((m) => m.ruleId === 'no-restricted-imports');
  }).map(([what, dir, source]) => `${what} (${dir}: ${source})`);
  if (missed.length > 0) {
    console.error(`Lint let these layer violations through:\n  ${missed.join('\n  ')}`);
    process.exitCode = 1; // not exit(): the plants must still be removed below
  } else {
    console.log(`Layer rules refuse all ${PLANTS.length} planted violations.`);
  }
} finally {
  for (const file of files) rmSync(file, { force: true });
}
