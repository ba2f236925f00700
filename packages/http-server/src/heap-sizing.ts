import { SERVER_NODE_FLAGS } from './node-flags.mjs';

/**
 * Why this process runs without a server's young generation, or null. A server started as
 * `tsx main.ts` rather than through our launchers lacks SERVER_NODE_FLAGS; it works, with a
 * slower tail under load, so main.ts warns rather than refusing to start. Judged on the
 * command line, not on the heap: V8 grows the young generation while modules load and shrinks
 * it again once the process idles, so its size at start says nothing.
 */
export function heapSizingProblem(execArgv: readonly string[] = process.execArgv): string | null {
  const missing = SERVER_NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
  if (missing.length === 0) return null;
  return `node was started without ${missing.join(' ')}: the young generation stays small and requests under load wait for the old generation's collections (start it as npm start does)`;
}
