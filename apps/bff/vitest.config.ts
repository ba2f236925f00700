import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'bff',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Removes the temporary directories a file's tests made (test-support/temp-dirs.ts).
    setupFiles: ['src/test-support/setup-temp-dirs.ts'],
    // Many tests drive real processes and a real PostgreSQL; on a busy 2-core CI machine a
    // handover or a restart can take longer than vitest's 5 s default. A hang guard, not a target.
    testTimeout: 20_000,
  },
});
