import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'http-server', environment: 'node', include: ['src/**/*.test.ts'] },
});
