import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type CuttableProxy = {
  url: string;
  /** From now on every connection, open or new, is reset: the upstream is unreachable. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
};

/**
 * A TCP proxy in front of `targetUrl` that a test can cut: the network outage a fault switch
 * inside the sandbox cannot make (there the sandbox still answers, with 503s).
 */
export async function startCuttableProxy(targetUrl: string): Promise<CuttableProxy> {
  const target = new URL(targetUrl);
  const open = new Set<Socket>();
  let isCut = false;
  const server: Server = createServer((client) => {
    if (isCut) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      isCut = true;
      for (const socket of open) socket.resetAndDestroy();
    },
    restore() {
      isCut = false;
    },
    close() {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
  };
}
