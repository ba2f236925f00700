// Plain JavaScript, so scripts/start.mjs can import it before anything is built; the types are
// in node-flags.d.mts. Why these flags: docs/decisions/017-server-young-generation.md.

/**
 * The V8 flags every server of ours starts with (the BFF and the sandbox; the bench runs its
 * reference servers with them too, so a ratio compares code, not heap settings).
 *
 * V8 starts a process's young generation at 1 MiB a semi-space and grows it only when many
 * objects survive. Under a steady 500 req/s the BFF then scavenged every ~25 ms, so anything a
 * request keeps for longer (a request-log row waiting for its batch, the request itself when
 * the upstream is slow) was promoted, and the old generation needed a mark-compact every few
 * seconds: its steps on the main thread and its helper threads on the two cores were the
 * BFF's slowest requests. At 16 MiB a scavenge comes every few hundred milliseconds. The
 * maximum, V8's default here, is pinned: at 32 MiB the BFF's memory during a 100,000-row
 * export went past its 100 MiB budget.
 */
export const SERVER_NODE_FLAGS = Object.freeze([
  '--min-semi-space-size=16',
  '--max-semi-space-size=16',
]);
