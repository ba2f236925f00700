import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tanstackQuery from '@tanstack/eslint-plugin-query';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// --- Layers, kept by lint (STYLE.md "Boundaries"; scripts/check-lint-boundaries.mjs plants one
// violation of each kind and expects this config to refuse it). ESLint applies only the last
// matching block's options of a rule, so each file gets all its restrictions from one block.

const APPS = ['sandbox', 'bff', 'console'];
const CONSOLE = 'apps/console/src';
const FEATURES = readdirSync(CONSOLE + '/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Relative paths into another app's source, or around a package's entry point. */
function otherApps(self) {
  const others = APPS.filter((app) => app !== self);
  return [
    {
      group: others.map((app) => `@settlement/${app}`),
      message: 'An app never imports another app.',
    },
    {
      regex: `(^|/)(apps/)?(${others.join('|')})/src(/|$)`,
      message: 'An app never imports another app.',
    },
    {
      regex: '(^|/)packages/[\\w-]+/src(/|$)',
      message: 'Import a package by its name (its entry point), never by a path into its source.',
    },
  ];
}

/** Classic zod does not tree-shake: ~25 KB gzip of the console's first page (decision 026). */
const CLASSIC_ZOD = {
  name: 'zod',
  message: "The console and packages/protocol use 'zod/mini' (decision 026).",
};

const CONSOLE_PATHS = [
  { name: '@settlement/protocol/signing', message: 'The console never signs.' },
  { name: '@settlement/client', message: 'The console talks only to the BFF.' },
  CLASSIC_ZOD,
];

function restrict(patterns, paths = []) {
  return { 'no-restricted-imports': ['error', { paths, patterns }] };
}

/** A feature reaches features/ by going up as many levels as it is deep; nothing else there is its own. */
function featureBlocks(feature) {
  return [1, 2, 3].map((depth) => ({
    files: [`${CONSOLE}/features/${feature}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
    rules: restrict(
      [
        ...otherApps('console'),
        {
          regex: `^(\\.\\./){${depth}}(?!${feature}/|\\.\\./)[\\w-]+(/|$)`,
          message: 'A console feature never imports another feature; compose them in app/.',
        },
        {
          regex: `^(\\.\\./){${depth + 1}}app(/|$)`,
          message: 'Features never import app/ (shared -> features -> app).',
        },
      ],
      CONSOLE_PATHS,
    ),
  }));
}

const layers = [
  {
    files: ['packages/protocol/src/**/*.ts'],
    rules: restrict(
      [
        { group: ['node:*'], message: 'packages/protocol is isomorphic: no Node APIs.' },
        {
          group: [
            'react',
            'react-dom',
            'react-dom/*',
            'express',
            'ws',
            'better-sqlite3',
            'undici',
            'pino',
          ],
          message: 'packages/protocol is pure: no UI, server, database or network libraries.',
        },
        { group: ['@settlement/*'], message: 'packages/protocol imports nothing of ours.' },
        { regex: '^(\\.\\./){2,}', message: 'packages/protocol imports nothing outside itself.' },
      ],
      [
        ...builtinModules.map((name) => ({
          name,
          message: 'packages/protocol is isomorphic: no Node APIs.',
        })),
        CLASSIC_ZOD,
      ],
    ),
  },
  {
    files: [
      'packages/client/src/**/*.ts',
      'packages/sqlite/src/**/*.ts',
      'packages/http-server/src/**/*.ts',
    ],
    rules: restrict([
      {
        group: APPS.map((app) => `@settlement/${app}`),
        message: 'A package never imports an app.',
      },
      { regex: '(^|/)apps/', message: 'A package never imports an app.' },
    ]),
  },
  { files: ['apps/sandbox/src/**/*.ts'], rules: restrict(otherApps('sandbox')) },
  { files: ['apps/bff/src/**/*.ts'], rules: restrict(otherApps('bff')) },
  {
    // The one exception: the BFF's tests run a sandbox as a process through the helper the
    // sandbox owns beside its main.ts (flags, ready line). A process boundary; no code is shared.
    files: ['apps/bff/src/test-support/harness.ts'],
    rules: restrict(
      otherApps('bff').map((pattern) =>
        pattern.group
          ? {
              regex: '^@settlement/(?!sandbox/spawn$)(sandbox|console)(/|$)',
              message: pattern.message,
            }
          : pattern,
      ),
    ),
  },
  { files: [`${CONSOLE}/**/*.{ts,tsx}`], rules: restrict(otherApps('console'), CONSOLE_PATHS) },
  {
    files: [`${CONSOLE}/lib/**/*.{ts,tsx}`, `${CONSOLE}/components/**/*.{ts,tsx}`],
    rules: restrict(
      [
        ...otherApps('console'),
        { regex: '(^|/)features(/|$)', message: 'lib/ and components/ never import features.' },
        { regex: '(^|/)app(/|$)', message: 'lib/ and components/ never import app/.' },
      ],
      CONSOLE_PATHS,
    ),
  },
  ...FEATURES.flatMap(featureBlocks),
  {
    files: ['bench/**/*.ts', 'e2e/**/*.ts'],
    rules: restrict([
      {
        regex: '(^|/)(apps|packages)/[\\w-]+/src(/|$)',
        message: 'bench and e2e use apps and packages only through their package entry points.',
      },
    ]),
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      '.data/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
      'eslint.config.js',
      'scripts/**/*.mjs',
      // Plain JavaScript that scripts/start.mjs imports, like the scripts themselves.
      'packages/http-server/src/node-flags.mjs',
      // A worker thread's entry: registers tsx's loader, then imports the TypeScript (022).
      'apps/sandbox/src/co-signer/client-worker-boot.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['apps/console/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, '@tanstack/query': tanstackQuery },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...tanstackQuery.configs.recommended.rules,
    },
  },
  ...layers,
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
);
