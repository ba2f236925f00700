import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'bff', environment: 'node', include: ['src/**/*.test.ts'] },
});
