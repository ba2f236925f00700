import { createServer } from 'node:http';
import { Agent } from 'undici';
import { FORWARDED_HEADERS } from './forwarded';

/**
 * Bench reference (run as its own process): the floor under the pass-through proxy. The same
 * forwarding on bare `node:http` with undici's pool and nothing else (no express, no body
 * parser), so the cost of each layer above it is visible: floor -> express pass-through -> BFF.
 * It forwards the request's own signed headers unchanged (the load generator signs).
 * Env: PORT, UPSTREAM_URL.
 */

const port = Number(process.env.PORT ?? 0);
const upstream = new URL(process.env.UPSTREAM_URL ?? 'http://127.0.0.1:4010');
const agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });

const server = createServer((req, res) => {
  if (req.url === '/healthz') {
    res.end('ok');
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    agent
      .request({
        origin: upstream.origin,
        path: req.url ?? '/',
        method: req.method === 'POST' ? 'POST' : 'GET',
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : null,
      })
      .then(async (answer) => {
        const bytes = Buffer.from(await answer.body.arrayBuffer());
        const requestId = answer.headers['x-request-id'];
        if (typeof requestId === 'string') res.setHeader('x-request-id', requestId);
        const type = answer.headers['content-type'];
        if (typeof type === 'string') res.setHeader('content-type', type);
        res.statusCode = answer.statusCode;
        res.end(bytes);
      })
      .catch(() => {
        res.statusCode = 502;
        res.end();
      });
  });
});

server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`node:http proxy listening on http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void agent.close().then(() => process.exit(0));
});
