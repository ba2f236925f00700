import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dirs';

// Registered before the file's own hooks, so it runs after them (after hooks run in reverse):
// every BFF and process the file started is closed by then.
afterAll(removeTempDirs);
