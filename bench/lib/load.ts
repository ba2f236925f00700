import autocannon from 'autocannon';
import { setMaxListeners } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import { Pool } from 'undici';
import { percentile } from './report';

/** One autocannon run on loopback, summarized. */
export type LoadResult = {
  /** 2xx responses per second (non-2xx are counted apart and never as throughput). */
  okPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  total: number;
};

export type LoadOptions = {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Called before every request: fresh signature headers, idempotency keys, bodies. */
  setup?: (request: { headers: IncomingHttpHeaders; body?: string | Buffer }) => {
    headers: Record<string, string>;
    body?: string;
  };
  connections: number;
  durationS: number;
};

export async function load(options: LoadOptions): Promise<LoadResult> {
  const { setup } = options;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    connections: options.connections,
    duration: options.durationS,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.body === undefined ? {} : { body: options.body }),
    timeout: 10,
    ...(setup
      ? {
          requests: [
            {
              setupRequest: (request) => {
                const next = setup({
                  headers: request.headers ?? {},
                  ...(request.body === undefined ? {} : { body: request.body }),
                });
                return {
                  ...request,
                  headers: { ...request.headers, ...next.headers },
                  ...(next.body === undefined ? {} : { body: next.body }),
                };
              },
            },
          ],
        }
      : {}),
  });
  return {
    okPerSecond: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result['2xx'] + result.non2xx,
  };
}

/**
 * An open-loop load at a fixed rate: request i is due at start + i / rate, whatever happened to
 * the ones before it, and its latency runs from when it was DUE to its last byte, so a stall of
 * the server shows in every request it delayed (no coordinated omission).
 *
 * Not autocannon's `overallRate`: that lets each connection send its whole share of a second
 * back to back at the start of the second and then wait, i.e. a saturating burst every second,
 * and it "corrects" every latency above 1 ms with synthetic samples; its p99 measured the burst.
 */
export async function pacedLoad(options: {
  url: string;
  headers?: Record<string, string>;
  /** Fresh headers per request (signatures). */
  setup?: () => { headers: Record<string, string> };
  /** Requests per second over all connections. */
  rate: number;
  durationS: number;
  /** Connections the requests may use (a late request waits for one, counted in its latency). */
  connections: number;
}): Promise<LoadResult> {
  const url = new URL(options.url);
  const pool = new Pool(url.origin, { connections: options.connections, pipelining: 1 });
  const path = `${url.pathname}${url.search}`;
  const total = Math.round(options.rate * options.durationS);
  const latencies: number[] = [];
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  const inFlight: Promise<void>[] = [];
  // A server that cannot keep up the rate would make the open loop wait for ever: whatever is
  // unanswered this long after the last request was due is cut, counted as an error, and its
  // latency so far still counts (so the p99 shows it).
  const drainMs = 5_000;
  const cut = new AbortController();
  // Every request in flight listens to it (16 connections' worth and more): not a leak.
  setMaxListeners(0, cut.signal);
  const one = async (due: number): Promise<void> => {
    try {
      const headers = { ...options.headers, ...options.setup?.().headers };
      const answer = await pool.request({ path, method: 'GET', headers, signal: cut.signal });
      await answer.body.arrayBuffer();
      latencies.push(performance.now() - due);
      if (answer.statusCode >= 200 && answer.statusCode < 300) ok += 1;
      else non2xx += 1;
    } catch {
      latencies.push(performance.now() - due);
      errors += 1;
    }
  };
  const started = performance.now();
  const intervalMs = 1000 / options.rate;
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const now = performance.now();
      // Every request due by now goes out now, each timed from its own due moment.
      while (sent < total && started + sent * intervalMs <= now) {
        inFlight.push(one(started + sent * intervalMs));
        sent += 1;
      }
      if (sent >= total) resolve();
      else setTimeout(tick, Math.max(0, started + sent * intervalMs - performance.now()));
    };
    tick();
  });
  const cutTimer = setTimeout(() => {
    cut.abort();
  }, drainMs);
  await Promise.all(inFlight);
  clearTimeout(cutTimer);
  const elapsedS = (performance.now() - started) / 1000;
  await pool.destroy();
  return {
    okPerSecond: ok / elapsedS,
    p50Ms: percentile(latencies, 50) ?? 0,
    p99Ms: percentile(latencies, 99) ?? 0,
    non2xx,
    errors,
    total: ok + non2xx,
  };
}
