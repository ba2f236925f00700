import type { ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/** The BFF's helmet configuration: the document headers every answer carries. */
export const HELMET_OPTIONS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // The toast library injects its stylesheet at run time; scripts stay strictly 'self'.
      // See docs/decisions/001-inline-styles-in-csp.md.
      styleSrc: ["'self'", "'unsafe-inline'"],
      connectSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  crossOriginEmbedderPolicy: false,
};

export type SecurityHeaders = {
  /** The headers helmet sets, in its order (lower-case names). */
  set: readonly (readonly [string, string])[];
  /** The headers helmet removes (X-Powered-By). */
  removed: readonly string[];
};

/**
 * What helmet does to a response, worked out once. With the configuration above none of its
 * headers depends on the request (no CSP nonces, no functions as directive values), so running
 * helmet's thirteen middlewares against every response only repeated the same result: ~2% of
 * the BFF's busy time under load. Throws if a header would depend on the request, or if
 * helmet does not finish synchronously without an error.
 */
export function computeSecurityHeaders(options: Readonly<HelmetOptions>): SecurityHeaders {
  // A CSP directive value may be a function of (req, res), e.g. a per-response nonce: the only
  // way a helmet header can depend on the request, and then it cannot be computed once.
  const csp = options.contentSecurityPolicy;
  const directives = typeof csp === 'object' ? Object.values(csp.directives ?? {}) : [];
  if (directives.flat().some((value) => typeof value === 'function')) {
    throw new Error('a CSP directive depends on the request; helmet must run per response');
  }
  const set: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string') throw new Error(`helmet set ${name} to a non-string`);
      set.push([name.toLowerCase(), value]);
    },
    removeHeader(name: string) {
      removed.push(name.toLowerCase());
    },
  };
  // Helmet reads nothing of the request for these headers: it gets a stand-in for both.
  const middleware = helmet(options) as unknown as (
    req: object,
    res: typeof recorder,
    next: (error?: unknown) => void,
  ) => void;
  const outcome = { isDone: false };
  middleware({}, recorder, (error) => {
    if (error !== undefined) throw error instanceof Error ? error : new Error('helmet failed');
    outcome.isDone = true;
  });
  if (!outcome.isDone) throw new Error('helmet did not finish synchronously');
  return { set, removed };
}

/** Sets the precomputed headers on one response (the same ones helmet would set). */
export function applySecurityHeaders(res: ServerResponse, headers: SecurityHeaders): void {
  for (const name of headers.removed) res.removeHeader(name);
  for (const [name, value] of headers.set) res.setHeader(name, value);
}
