import express, { type Router } from 'express';
import { OverviewSchema } from '@settlement/protocol';
import type { Services } from '../services/services';
import { treasuryOverview } from '../services/overview';
import type { WalletLabelStore } from '../store/wallet-labels';
import { requireRole } from './guards';

/**
 * GET /bff/overview (support and above, read-only): totals per asset and chain over every
 * wallet, the wallets with their balances and labels, and the withdrawals in flight.
 */
export function overviewRoutes(services: Services, labels: WalletLabelStore): Router {
  const router = express.Router();
  router.get('/', async (_req, res) => {
    const session = requireRole(res, 'support');
    // A browser that navigated away needs no answer: stop the upstream reads too. The
    // response's close, not the request's: a request closes as soon as its body was read (a
    // GET may carry one), long before the answer is written.
    const aborted = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborted.abort();
    });
    const overview = await treasuryOverview(services, labels, {
      operator: session.username,
      signal: aborted.signal,
    });
    res.setHeader('cache-control', 'no-store');
    res.json(OverviewSchema.parse(overview));
  });
  return router;
}
