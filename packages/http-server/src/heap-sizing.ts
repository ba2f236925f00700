import { SERVER_NODE_FLAGS } from './node-flags.mjs';

/** `--min_semi_space_size` and `--min-semi-space-size` are the same V8 flag. */
const flagName = (name: string) => name.replace(/_/g, '-');

/**
 * The numeric V8 flags on a command line, by name; the last one wins, as in V8. Takes both
 * `--name=value` and `--name value`.
 */
function numericFlags(execArgv: readonly string[]): Map<string, number> {
  const flags = new Map<string, number>();
  execArgv.forEach((arg, i) => {
    if (!arg.startsWith('--')) return;
    const eq = arg.indexOf('=');
    const name = flagName(eq === -1 ? arg : arg.slice(0, eq));
    const value = Number(eq === -1 ? execArgv[i + 1] : arg.slice(eq + 1));
    if (Number.isFinite(value)) flags.set(name, value);
  });
  return flags;
}

/**
 * Why this process runs without a server's young generation, or null. A server started as
 * `tsx main.ts` rather than through our launchers lacks SERVER_NODE_FLAGS; it works, with a
 * slower tail under load, so main.ts warns rather than refusing to start. Judged on the
 * command line, not on the heap: V8 grows the young generation while modules load and shrinks
 * it again once the process idles, so its size at start says nothing. A flag set higher than
 * ours is a deliberate larger young generation, not a problem.
 */
export function heapSizingProblem(execArgv: readonly string[] = process.execArgv): string | null {
  const given = numericFlags(execArgv);
  const missing = SERVER_NODE_FLAGS.filter((flag) => {
    const [name = '', value] = flag.split('=');
    return !((given.get(flagName(name)) ?? -Infinity) >= Number(value));
  });
  if (missing.length === 0) return null;
  return `node was started without ${missing.join(' ')}: the young generation stays small and requests under load wait for the old generation's collections (start it as npm start does)`;
}
