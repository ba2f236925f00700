import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'sqlite', environment: 'node', include: ['src/**/*.test.ts'] },
});
