import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { HELMET_OPTIONS, applySecurityHeaders, computeSecurityHeaders } from './security-headers';

/** The headers of one GET answered by an express app with `use` in front of its route. */
async function headersOf(use: express.RequestHandler): Promise<Record<string, unknown>> {
  const app = express();
  app.use((_req, res, next) => {
    res.setHeader('x-powered-by', 'something');
    next();
  });
  app.use(use);
  app.get('/x', (_req, res) => {
    res.json({ ok: true });
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/x`);
    await response.arrayBuffer();
    const headers = Object.fromEntries(response.headers);
    delete headers.date;
    return headers;
  } finally {
    server.close();
  }
}

describe('security headers', () => {
  it('are exactly what helmet itself sets on an answer, computed once', async () => {
    const precomputed = computeSecurityHeaders(HELMET_OPTIONS);
    const viaHelmet = await headersOf(helmet(HELMET_OPTIONS));
    const viaPrecomputed = await headersOf((_req, res, next) => {
      applySecurityHeaders(res, precomputed);
      next();
    });
    expect(viaPrecomputed).toEqual(viaHelmet);
    expect(viaHelmet['x-powered-by']).toBeUndefined();
    expect(viaHelmet['content-security-policy']).toContain("script-src 'self'");
    expect(precomputed.set.length).toBeGreaterThan(10);
  });

  it('refuses a configuration whose headers would depend on the request', () => {
    expect(() =>
      computeSecurityHeaders({
        contentSecurityPolicy: {
          useDefaults: false,
          directives: { scriptSrc: ["'self'", () => "'nonce-abc'"] },
        },
      }),
    ).toThrow(/depends on the request/);
  });
});
