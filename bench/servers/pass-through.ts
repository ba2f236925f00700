import { createExpressServer } from '@settlement/http-server';
import express from 'express';
import { Agent } from 'undici';
import { FORWARDED_HEADERS } from './forwarded';

/**
 * Bench reference (run as its own process): an unsigned pass-through proxy on the BFF's stack,
 * express 5 and an undici Agent configured as the BFF's upstream pool. It forwards the
 * request's own signed headers unchanged (the load generator signs), so it measures what
 * proxying alone costs: no session, no role check, no signing, no request log.
 * Env: PORT, UPSTREAM_URL.
 */

const port = Number(process.env.PORT ?? 0);
const upstream = new URL(process.env.UPSTREAM_URL ?? 'http://127.0.0.1:4010');
const agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(express.raw({ type: () => true, limit: '1mb' }));
app.use(async (req, res) => {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const body = Buffer.isBuffer(req.body) && req.body.length > 0 ? req.body : null;
  const answer = await agent.request({
    origin: upstream.origin,
    path: req.originalUrl,
    method: req.method === 'POST' ? 'POST' : 'GET',
    headers,
    body,
  });
  const bytes = Buffer.from(await answer.body.arrayBuffer());
  const requestId = answer.headers['x-request-id'];
  if (typeof requestId === 'string') res.setHeader('x-request-id', requestId);
  const type = answer.headers['content-type'];
  if (typeof type === 'string') res.setHeader('content-type', type);
  res.status(answer.statusCode).end(bytes);
});

const server = createExpressServer(app);
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`pass-through listening on http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void agent.close().then(() => process.exit(0));
});
