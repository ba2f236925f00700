import { defineConfig } from 'vitest/config';

/**
 * One run over every workspace; `npm test` fails when a package's line coverage drops below its
 * floor. Floors sit a little under what each package measured: raise them as
 * tests grow, never lower them to make a change pass.
 */
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'bench', 'chaos'],
    coverage: {
      provider: 'v8',
      include: ['packages/*/src/**/*.ts', 'apps/*/src/**/*.{ts,tsx}'],
      exclude: ['**/*.test.{ts,tsx}', '**/index.ts', '**/test-support/**'],
      reporter: ['text-summary'],
      thresholds: {
        'packages/protocol/src/**/*.ts': { lines: 95 },
        'packages/sqlite/src/**/*.ts': { lines: 95 },
        'packages/http-server/src/**/*.ts': { lines: 95 },
        'packages/client/src/**/*.ts': { lines: 90 },
        'apps/sandbox/src/**/*.ts': { lines: 93 },
        'apps/bff/src/**/*.ts': { lines: 85 },
        'apps/console/src/**/*.{ts,tsx}': { lines: 66 },
      },
    },
  },
});
