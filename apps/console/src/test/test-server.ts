import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setApiOrigin, setCsrfToken } from '../lib/api-client';

/**
 * A small HTTP server on 127.0.0.1:0 standing in for the BFF in component tests: each route
 * (exact path, or a prefix ending in `*`) answers with a handler; every request is recorded.
 */

export type RecordedRequest = {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
};

export type Reply = { status?: number; body?: unknown; headers?: Record<string, string> };
type Handler = (request: RecordedRequest) => Reply | Promise<Reply>;

export type TestServer = {
  origin: string;
  requests: RecordedRequest[];
  route: (method: string, path: string, handler: Handler) => void;
  close: () => Promise<void>;
};

export async function startTestServer(): Promise<TestServer> {
  const routes = new Map<string, Handler>();
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://localhost');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: `${url.pathname}${url.search}`,
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
      };
      requests.push(recorded);
      const handler =
        routes.get(`${recorded.method} ${url.pathname}`) ??
        [...routes.entries()].find(
          ([key]) =>
            key.endsWith('*') && `${recorded.method} ${url.pathname}`.startsWith(key.slice(0, -1)),
        )?.[1];
      void Promise.resolve(
        handler
          ? handler(recorded)
          : {
              status: 404,
              body: {
                code: 'RESOURCE_NOT_FOUND',
                message: 'no route',
                details: [],
                requestId: 'req-404',
                retryable: false,
              },
            },
      ).then((reply) => {
        res.writeHead(reply.status ?? 200, {
          'content-type': 'application/json',
          'access-control-allow-origin': '*',
          ...reply.headers,
        });
        res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    route: (method, path, handler) => routes.set(`${method} ${path}`, handler),
    close: () =>
      new Promise((resolve) => {
        server.close(() => {
          resolve();
        });
        // A request a test left unanswered (a hung upstream) must not hold the close.
        server.closeAllConnections();
      }),
  };
}

/**
 * A test server the api client talks to, with the session's CSRF token set; closing it points
 * the client back at its default origin.
 */
export async function startApiTestServer(): Promise<TestServer> {
  const server = await startTestServer();
  setApiOrigin(server.origin);
  setCsrfToken('csrf-test-token');
  return {
    ...server,
    close: () => {
      setApiOrigin(null);
      return server.close();
    },
  };
}

/**
 * A reply held until the test releases it: a call still in flight (a slow or hung upstream).
 * Every request to the route gets the same reply, once released.
 */
export function heldReply(reply: Reply): { handler: () => Promise<Reply>; release: () => void } {
  let release: () => void = () => undefined;
  const held = new Promise<Reply>((resolve) => {
    release = () => {
      resolve(reply);
    };
  });
  return {
    handler: () => held,
    release: () => {
      release();
    },
  };
}

export function envelope(code: string, status: number, requestId: string, details: unknown[] = []) {
  return {
    status,
    body: { code, message: `${code} (test)`, details, requestId, retryable: status >= 500 },
    headers: { 'x-request-id': requestId },
  };
}
