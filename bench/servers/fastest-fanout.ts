import { createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { textFrame } from '@settlement/bff/text-frame';
import WebSocket, { WebSocketServer } from 'ws';
import { REFERENCE_KEY_ID } from '../lib/fake-upstream';

/**
 * Bench reference (run as its own process): the fastest fan-out `ws` allows on this machine,
 * the limit the BFF relay is measured against. One upstream socket (UPSTREAM_WS_URL, handshake
 * headers sent but not signed); every event is framed ONCE into a WebSocket frame and the same
 * bytes are written straight to every browser's TCP socket, the frames of one tick in one corked
 * write per socket. No store, no dedupe, no per-socket bound: nothing the relay must do.
 */

const port = Number(process.env.PORT ?? 0);
const upstreamUrl = process.env.UPSTREAM_WS_URL ?? 'ws://127.0.0.1:4010/v1/ws';

const server = createServer((_req, res) => {
  res.statusCode = 200;
  res.end('ok');
});
const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
const transports = new Set<Duplex>();
server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
  wss.handleUpgrade(req, socket, head, (ws) => {
    transports.add(socket);
    const forget = (): void => {
      transports.delete(socket);
    };
    ws.on('close', forget);
    ws.on('error', forget);
  });
});

let pending: Buffer[] = [];
function flush(): void {
  const frames = pending;
  pending = [];
  for (const socket of transports) {
    socket.cork();
    for (const frame of frames) socket.write(frame);
    socket.uncork();
  }
}

function connect(): void {
  const upstream = new WebSocket(upstreamUrl, {
    headers: { 'X-Api-Signature': 'unchecked', 'X-Api-Key-Id': REFERENCE_KEY_ID },
  });
  upstream.on('message', (data: Buffer) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push(textFrame(data));
  });
  upstream.on('close', () => {
    setTimeout(connect, 200).unref();
  });
  upstream.on('error', () => undefined);
}

server.listen(port, '127.0.0.1', () => {
  connect();
  process.stdout.write(`fastest fan-out listening on http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => {
  for (const socket of transports) socket.destroy();
  process.exit(0);
});
