import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  constants as zlibConstants,
  gzip,
  gzipSync,
} from 'node:zlib';
import { fillEarlyPaint, type EarlyPaintIdentity } from '@settlement/protocol';
import express, { type RequestHandler, type Request, type Response, type Router } from 'express';
import { HttpError } from '../errors';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text types worth compressing; images, fonts and archives are already compressed. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.map']);
/** Below this many bytes the headers cost more than compression saves. */
const MIN_COMPRESS_BYTES = 1024;
/** Bound of the in-memory cache (the built console has a few dozen files). */
const MAX_CACHED_FILES = 512;
const ASSET_NAME = /^[\w.-]+$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

export type Encoding = 'br' | 'gzip';
/** One version of a file (by mtime and size); `forms` null when compression does not pay. */
type Entry = { mtimeMs: number; size: number; forms: Record<Encoding, Buffer> | null };

/** One answer compressed while it is sent: brotli at `brotliQuality`, or gzip level 6. */
function compressNow(body: Buffer, encoding: Encoding, brotliQuality: number): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: brotliQuality,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipSync(body, { level: 6 });
}

/**
 * br or gzip by the client's q-values, br on a tie (browsers list `gzip, deflate, br` with equal
 * weight; br is the smaller form); null for identity.
 */
export function preferredEncoding(header: string | undefined): Encoding | null {
  // No header (API clients, the bench's load generator): identity, without the parse.
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find(Boolean);
    weights.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weightOf = (name: Encoding) => weights.get(name) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gz = weightOf('gzip');
  if (br > 0 && br >= gz) return 'br';
  return gz > 0 ? 'gzip' : null;
}

/** Response types worth compressing on the fly: JSON (with `+json` suffixes) and text. */
const DYNAMIC_COMPRESSIBLE = /^(?:application\/(?:[\w.-]+\+)?json|text\/)/i;

/**
 * Compresses whole-body responses (`res.json`, `res.send`, a single `res.end(body)`, as the
 * /bff/api pass-through answers) of 1 KiB or more for clients that accept br or gzip: the
 * console's list pages are 10-60 KB of JSON that compress ~10x, and the first page waited for
 * them uncompressed. Streamed responses (anything that calls `res.write`, like exports) pass
 * through unchanged. Brotli 4 / gzip 6: fast enough to run inline (a 50 KB page in well under
 * a millisecond); static files get the slow maximum once instead (`staticRoutes`).
 *
 * `isSecretBearing` responses are never compressed: a secret (the CSRF token of /bff/auth)
 * compressed beside request-controlled text is what BREACH reads through response lengths.
 */
export function compressResponses(options: {
  isSecretBearing: (req: Request) => boolean;
}): RequestHandler {
  return (req, res, next) => {
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    res.vary('Accept-Encoding');
    if (encoding && req.method !== 'HEAD' && !options.isSecretBearing(req)) {
      compressWhenEnded(res, encoding);
    }
    next();
  };
}

/**
 * Makes `res.end(body)` send the body compressed in `encoding` when it is one whole JSON or
 * text body worth compressing (see compressResponses); anything else is sent as it is.
 */
export function compressWhenEnded(res: ServerResponse, encoding: Encoding): void {
  let isStreamed = false;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((...args: unknown[]) => {
    isStreamed = true;
    return write(...args);
  }) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => {
    const [chunk, encodingOrCallback] = args;
    const type = res.getHeader('content-type');
    if (
      isStreamed ||
      res.headersSent ||
      (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) ||
      typeof type !== 'string' ||
      !DYNAMIC_COMPRESSIBLE.test(type) ||
      res.getHeader('content-encoding') !== undefined ||
      res.statusCode === 204 ||
      res.statusCode === 304
    ) {
      return end(...args);
    }
    const body =
      typeof chunk === 'string'
        ? Buffer.from(
            chunk,
            typeof encodingOrCallback === 'string'
              ? (encodingOrCallback as BufferEncoding)
              : 'utf8',
          )
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (body.length < MIN_COMPRESS_BYTES) return end(...args);
    const compressed = compressNow(body, encoding, 4);
    if (compressed.length >= body.length) return end(...args);
    res.setHeader('content-encoding', encoding);
    res.setHeader('content-length', compressed.length);
    const callback = args.find((a) => typeof a === 'function');
    return callback ? end(compressed, callback) : end(compressed);
  }) as ServerResponse['end'];
}

const EARLY_PAINT_TEMPLATE = /<template id="signed-in-overview">([\s\S]*?)<\/template>\s*/;
const ROOT_OPEN = '<div id="root">';

/**
 * index.html for a signed-in operator opening `/`: the content of the console's
 * `signed-in-overview` template, with who is signed in filled in (escaped), in #root in place of
 * the placeholder, and the template dropped (with its sandbox-only markup unless the upstream
 * is the sandbox: the console's top bar differs by that, so must its early paint). The
 * overview's largest paint (its description, which names the operator) is then painted from
 * the HTML, and the console's first render replaces it in place (the same markup), instead of
 * drawing it for the first time after the scripts, the session probe and the page's chunk
 * (Lighthouse mobile, simulated slow 4G: LCP 2.4-2.9 s before, the first paint's ~0.7 s with
 * it). Nobody signed in, the file is served as it is (the template is inert and holds no
 * data). Without the template, returns `html`.
 */
export function withEarlyPaint(html: string, identity: EarlyPaintIdentity): string {
  const template = EARLY_PAINT_TEMPLATE.exec(html);
  const rootStart = html.indexOf(ROOT_OPEN);
  if (!template || rootStart === -1 || rootStart > template.index) return html;
  const rootEnd = html.lastIndexOf('</div>', template.index);
  const paint = fillEarlyPaint(template[1] ?? '', identity);
  return (
    html.slice(0, rootStart + ROOT_OPEN.length) +
    paint +
    html.slice(rootEnd, template.index) +
    html.slice(template.index + template[0].length)
  );
}

export type StaticRoutes = {
  router: Router;
  /** Compresses every text asset of the build once (in zlib's thread pool), before any request. */
  warm(): Promise<void>;
};

/**
 * The built console: hashed /assets/* cached for a year, index.html never cached, and the SPA
 * fallback (index.html) for any other GET outside /bff. Text files are compressed once
 * (brotli q11 and gzip 9, kept in memory per file version) and served with Content-Encoding
 * and Vary: Accept-Encoding to clients that accept it.
 */
export function staticRoutes(
  consoleDist: string,
  options: {
    /** The operator signed in with the request's session, if any (the landing page's early paint). */
    signedInAs?: (req: Request) => Promise<EarlyPaintIdentity | null>;
  } = {},
): StaticRoutes {
  const router = express.Router();
  const assetsDir = join(consoleDist, 'assets');
  const index = join(consoleDist, 'index.html');
  const cache = new Map<string, Promise<Entry>>();

  async function compress(path: string, mtimeMs: number, size: number): Promise<Entry> {
    if (size < MIN_COMPRESS_BYTES) return { mtimeMs, size, forms: null };
    const bytes = await readFile(path);
    const [br, gz] = await Promise.all([
      brotliAsync(bytes, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
      gzipAsync(bytes, { level: 9 }),
    ]);
    // Served only when both forms are smaller than the file itself.
    const forms = br.length < bytes.length && gz.length < bytes.length ? { br, gzip: gz } : null;
    return { mtimeMs, size, forms };
  }

  /** The compressed forms of the file as it is now on disk (redone when it changes). */
  async function entryOf(path: string, mtimeMs: number, size: number): Promise<Entry> {
    const cached = await cache.get(path)?.catch(() => null);
    if (cached?.mtimeMs === mtimeMs && cached.size === size) return cached;
    const pending = compress(path, mtimeMs, size);
    cache.delete(path);
    if (cache.size >= MAX_CACHED_FILES) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(path, pending);
    pending.catch(() => {
      if (cache.get(path) === pending) cache.delete(path);
    });
    return pending;
  }

  /**
   * Sends a text file compressed when the client accepts it; returns false when the caller
   * should send the identity form (Vary is set either way, so caches keep the forms apart).
   */
  async function sendCompressed(
    req: Request,
    res: Response,
    path: string,
    cacheControl: string,
  ): Promise<boolean> {
    if (!COMPRESSIBLE.has(extname(path))) return false;
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return false;
    res.vary('Accept-Encoding');
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    if (!encoding) return false;
    const { forms } = await entryOf(path, info.mtimeMs, info.size);
    if (!forms) return false;
    const body = forms[encoding];
    res.type(extname(path));
    res.setHeader('cache-control', cacheControl);
    res.setHeader('content-encoding', encoding);
    res.setHeader('content-length', body.length);
    res.status(200).end(req.method === 'HEAD' ? undefined : body);
    return true;
  }

  /**
   * The landing page with the signed-in operator's early paint (see withEarlyPaint): private to
   * that session, so never stored by any cache, and compressed per response (brotli 5 / gzip 6,
   * ~45 KB in about a millisecond). The template is read from disk as the file changes.
   */
  async function sendEarlyPaint(req: Request, res: Response, identity: EarlyPaintIdentity) {
    const html = withEarlyPaint(await readFile(index, 'utf8'), identity);
    const body = Buffer.from(html, 'utf8');
    res.vary('Accept-Encoding');
    res.vary('Cookie');
    res.type('.html');
    res.setHeader('cache-control', 'no-store');
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    const sent = encoding ? compressNow(body, encoding, 5) : body;
    if (encoding) res.setHeader('content-encoding', encoding);
    res.setHeader('content-length', sent.length);
    res.status(200).end(req.method === 'HEAD' ? undefined : sent);
  }

  router.get('/assets/:name', async (req, res, next) => {
    const { name } = req.params;
    if (!ASSET_NAME.test(name) || name.startsWith('.')) {
      next();
      return;
    }
    if (!(await sendCompressed(req, res, join(assetsDir, name), IMMUTABLE))) next();
  });
  router.use(
    express.static(consoleDist, {
      index: false,
      fallthrough: true,
      setHeaders: (res, path) => {
        res.setHeader('cache-control', path.startsWith(assetsDir) ? IMMUTABLE : 'no-cache');
      },
    }),
  );
  router.get(/^(?!\/bff(\/|$)).*/, async (req, res) => {
    if (req.path.startsWith('/assets/') || !existsSync(index)) {
      throw new HttpError('RESOURCE_NOT_FOUND', 'No such file.');
    }
    if (req.path === '/' && options.signedInAs) {
      const identity = await options.signedInAs(req);
      if (identity) {
        await sendEarlyPaint(req, res, identity);
        return;
      }
    }
    if (await sendCompressed(req, res, index, 'no-cache')) return;
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(index);
  });

  return {
    router,
    async warm() {
      const names = await readdir(assetsDir).catch(() => []);
      const paths = [index, ...names.map((name) => join(assetsDir, name))];
      for (const path of paths) {
        // Source maps (most of the build's bytes) only reach devtools: compressed on demand.
        if (!COMPRESSIBLE.has(extname(path)) || path.endsWith('.map')) continue;
        const info = await stat(path).catch(() => null);
        if (info?.isFile()) await entryOf(path, info.mtimeMs, info.size).catch(() => null);
      }
    },
  };
}
