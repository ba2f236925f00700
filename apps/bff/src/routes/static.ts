import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Router } from 'express';
import { HttpError } from '../errors';

/**
 * The built console: hashed /assets/* cached for a year, index.html never cached, and the SPA
 * fallback (index.html) for any other GET outside /bff.
 */
export function staticRoutes(consoleDist: string): Router {
  const router = express.Router();
  const index = join(consoleDist, 'index.html');
  router.use(
    express.static(consoleDist, {
      index: false,
      fallthrough: true,
      setHeaders: (res, path) => {
        if (path.startsWith(join(consoleDist, 'assets'))) {
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        } else {
          res.setHeader('cache-control', 'no-cache');
        }
      },
    }),
  );
  router.get(/^(?!\/bff(\/|$)).*/, (req, res) => {
    if (req.path.startsWith('/assets/') || !existsSync(index)) {
      throw new HttpError('RESOURCE_NOT_FOUND', 'No such file.');
    }
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}
