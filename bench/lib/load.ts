import autocannon from 'autocannon';
import type { IncomingHttpHeaders } from 'node:http';

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
  /** Fixed offered load (requests/s over all connections); saturating when left out. */
  overallRate?: number;
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
    ...(options.overallRate === undefined ? {} : { overallRate: options.overallRate }),
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
