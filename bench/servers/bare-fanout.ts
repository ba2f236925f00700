import { createServer } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';
import { BARE_KEY_ID } from '../lib/fake-upstream';

/**
 * Bench reference (run as its own process): the same fan-out straight from a bare `ws`
 * server. One upstream socket (UPSTREAM_WS_URL, handshake headers sent but not signed), every
 * frame forwarded as received to every browser socket on PORT: no normalization, dedupe,
 * persistence, re-serialization or per-socket bound.
 */

const port = Number(process.env.PORT ?? 0);
const upstreamUrl = process.env.UPSTREAM_WS_URL ?? 'ws://127.0.0.1:4010/v1/ws';

const server = createServer((_req, res) => {
  res.statusCode = 200;
  res.end('ok');
});
const wss = new WebSocketServer({ server, maxPayload: 64 * 1024 });
const clients = new Set<WebSocket>();
wss.on('connection', (ws) => {
  clients.add(ws);
  ws.on('close', () => clients.delete(ws));
  ws.on('error', () => clients.delete(ws));
});

function connect(): void {
  const upstream = new WebSocket(upstreamUrl, {
    headers: { 'X-Api-Signature': 'unchecked', 'X-Api-Key-Id': BARE_KEY_ID },
  });
  upstream.on('message', (data: Buffer) => {
    for (const client of clients) client.send(data, { binary: false });
  });
  upstream.on('close', () => {
    setTimeout(connect, 200).unref();
  });
  upstream.on('error', () => undefined);
}

server.listen(port, '127.0.0.1', () => {
  connect();
  process.stdout.write(`bare fan-out listening on http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => {
  for (const client of clients) client.terminate();
  process.exit(0);
});
