import { defineProject } from 'vitest/config';

/** The campaign's pure parts (the schedule); the campaign itself runs as `npm run test:chaos`. */
export default defineProject({
  test: { name: 'chaos', environment: 'node', include: ['*.test.ts'] },
});
