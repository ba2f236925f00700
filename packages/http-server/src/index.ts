import {
  IncomingMessage,
  ServerResponse,
  createServer,
  type RequestListener,
  type Server,
} from 'node:http';
import type { Express } from 'express';

// TypeScript lets a class extend a generic constructor only when its rest parameter is `any[]`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Constructor<T> = new (...args: any[]) => T;

/** The classes each app's requests and responses are made with (one pair per app). */
const bornClasses = new WeakMap<
  Express,
  { Request: typeof IncomingMessage; Response: typeof ServerResponse }
>();

/**
 * An HTTP server for `app` whose requests and responses are born with express's prototypes
 * (`app.request`, `app.response`), so express's own per-request `Object.setPrototypeOf` finds
 * the prototype already in place and changes nothing.
 *
 * Why (measured, BENCHMARKS.md): swapping the prototype of every request and response gave each
 * a new hidden class. A bare express 5 app then promoted 28% of the bytes it allocated to the
 * old generation, each scavenge copied them (2.6 ms median pause), and it served 10,500 req/s
 * against 50,000 for node:http alone. Born with the prototype: 0.0% promoted, 0.1 ms pauses,
 * 32,000 req/s, with express's routing unchanged.
 *
 * `listener` (default: the app) is what runs for each request, when a server answers some
 * requests ahead of the app and hands it the rest.
 */
export function createExpressServer(app: Express, listener: RequestListener = app): Server {
  let classes = bornClasses.get(app);
  if (!classes) {
    const Request = subclassStandingFor(IncomingMessage, app.request);
    const Response = subclassStandingFor(ServerResponse, app.response);
    // The app's prototypes are now the subclasses': express gives every request and response
    // the one it was born with, and its methods find `app` and everything else as before.
    app.request = Request.prototype as Express['request'];
    app.response = Response.prototype as Express['response'];
    classes = { Request, Response };
    bornClasses.set(app, classes);
  }
  return createServer(
    { IncomingMessage: classes.Request, ServerResponse: classes.Response },
    listener,
  );
}

/**
 * A subclass of `base` whose prototype takes the place of `prototype`: the same own properties
 * (express's `app`) and the same parent (express's request or response methods).
 *
 * A subclass, not a function that calls `base` on an object made with `prototype`: V8 sizes an
 * object for the fields its constructor is seen to add. Such a function adds none, so responses
 * were born with no room for node's ~40 fields and fell into dictionary mode on the way
 * (`%HasFastProperties` false): every field read and write a hash look-up, 1.4 us more to
 * construct one (BENCHMARKS.md, 2026-12-06). A subclass is sized as `base` is.
 */
function subclassStandingFor<T extends Constructor<object>>(base: T, prototype: object): T {
  const Born = class extends base {};
  Object.defineProperties(Born.prototype, Object.getOwnPropertyDescriptors(prototype));
  Object.setPrototypeOf(Born.prototype, Object.getPrototypeOf(prototype) as object | null);
  return Born;
}

export { heapSizingProblem } from './heap-sizing';
export { SERVER_NODE_FLAGS } from './node-flags.mjs';
