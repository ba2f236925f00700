import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import express, { type Router } from 'express';
import { EXPORT_SUBJECTS } from '@settlement/protocol';
import type { Services } from '../services/services';
import { exportPlan, inertCell } from '../support/exports';
import { requireRole } from './guards';

/**
 * GET /bff/export/{transactions,wallets,accounts,audit}.csv — support role and above. Every
 * matching row, page by page through the upstream (or the audit log), streamed as RFC 4180 CSV
 * with backpressure, so memory stays flat however many rows there are. The first page is read
 * before any byte is sent: a refusal still answers in the error envelope.
 */
export function exportRoutes(services: Services): Router {
  const router = express.Router();
  for (const subject of EXPORT_SUBJECTS) {
    router.get(`/${subject}.csv`, async (req, res) => {
      const session = requireRole(res, 'support');
      const aborted = new AbortController();
      res.once('close', () => {
        aborted.abort();
      });
      const plan = await exportPlan(services, subject, {
        operator: session.username,
        query: req.query,
        signal: aborted.signal,
      });
      const pages = plan.rows();
      const first = await pages.next();
      async function* records() {
        yield plan.header;
        if (!first.done) for (const row of first.value) yield row.map(inertCell);
        for await (const page of pages) for (const row of page) yield row.map(inertCell);
      }
      const stamp = new Date(services.now()).toISOString().replace(/[:.]/g, '-');
      res.status(200);
      res.setHeader('content-type', 'text/csv; charset=utf-8');
      res.setHeader('content-disposition', `attachment; filename="${subject}-${stamp}.csv"`);
      res.setHeader('cache-control', 'no-store');
      try {
        await pipeline(Readable.from(records()), stringify({ record_delimiter: 'windows' }), res);
      } catch (error) {
        // Headers are gone: the only honest signal left is a cut connection (no final CRLF).
        services.logger.warn({ err: error, subject }, 'export stopped before its last row');
        res.destroy();
      }
    });
  }
  return router;
}
