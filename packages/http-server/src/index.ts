import {
  IncomingMessage,
  ServerResponse,
  createServer,
  type RequestListener,
  type Server,
} from 'node:http';
import type { Express } from 'express';

type Constructor<T> = new (...args: never[]) => T;

/** Node's request and response constructors are plain functions (not classes) up to now. */
function isCallable(constructor: Constructor<unknown>): boolean {
  return !Function.prototype.toString.call(constructor).startsWith('class');
}

/**
 * An HTTP server for `app` whose requests and responses are born with express's prototypes
 * (`app.request`, `app.response`), so express's own per-request `Object.setPrototypeOf` finds
 * the prototype already in place and changes nothing.
 *
 * Why (measured, BENCHMARKS.md): swapping the prototype of every request and response gave each
 * a new hidden class. A bare express 5 app then promoted 28% of the bytes it allocated to the
 * old generation, each scavenge copied them (2.6 ms median pause), and it served 10,500 req/s
 * against 50,000 for node:http alone. Born with the prototype: 0.0% promoted, 0.1 ms pauses,
 * 32,000 req/s, with express's routing unchanged. Should a future Node make these constructors
 * classes, which cannot be called on an existing object, the plain server is returned.
 *
 * `listener` (default: the app) is what runs for each request, when a server answers some
 * requests ahead of the app and hands it the rest.
 */
export function createExpressServer(app: Express, listener: RequestListener = app): Server {
  if (!isCallable(IncomingMessage) || !isCallable(ServerResponse)) return createServer(listener);
  return createServer(
    {
      IncomingMessage: bornWith<typeof IncomingMessage>(IncomingMessage, app.request),
      ServerResponse: bornWith<typeof ServerResponse>(ServerResponse, app.response),
    },
    listener,
  );
}

/** A constructor that builds what `base` builds, with `prototype` from birth. */
function bornWith<T extends Constructor<object>>(base: T, prototype: object): T {
  const construct = function (this: object, ...args: unknown[]) {
    Reflect.apply(base, this, args);
  };
  construct.prototype = prototype;
  return construct as unknown as T;
}

export { heapSizingProblem } from './heap-sizing';
export { SERVER_NODE_FLAGS } from './node-flags.mjs';
