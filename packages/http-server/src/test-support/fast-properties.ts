import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { createExpressServer } from '../index';

/**
 * Run by index.test.ts in a node started with --allow-natives-syntax: prints whether the
 * requests and responses of createExpressServer keep V8's fast properties, ahead of express
 * (the listener) and inside it (a route), as JSON on stdout.
 */
// V8's intrinsics are not TypeScript syntax: compiled at run time, as --allow-natives-syntax allows.
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (
  object: object,
) => boolean;

const seen: Record<string, boolean> = {};
const app = express();
app.get('/route', (req, res) => {
  seen.routeRequest = hasFastProperties(req);
  seen.routeResponse = hasFastProperties(res);
  res.json({ ok: true });
});
const server = createExpressServer(app, (req: IncomingMessage, res: ServerResponse) => {
  if (req.url !== '/ahead') {
    app(req, res);
    return;
  }
  res.setHeader('content-type', 'application/json');
  res.end('{}', () => {
    seen.aheadRequest = hasFastProperties(req);
    seen.aheadResponse = hasFastProperties(res);
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  void (async () => {
    for (const path of ['/ahead', '/route', '/ahead', '/route']) {
      await (await fetch(`http://127.0.0.1:${String(port)}${path}`)).text();
    }
    process.stdout.write(JSON.stringify(seen));
    server.close();
  })();
});
