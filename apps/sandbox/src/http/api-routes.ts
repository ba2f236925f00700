import express, { type Router } from 'express';
import type { AppContext } from '../context';
import { accountsRoutes } from './accounts-routes';
import { coSignerRoutes } from './co-signer-routes';
import { mpcRoutes } from './mpc-routes';
import { transactionsRoutes } from './transactions-routes';
import { walletsRoutes } from './wallets-routes';

/** Every /api/v1 operation (mounted behind authentication and the fault switches). */
export function apiRoutes(ctx: AppContext): Router {
  const router = express.Router();
  router.use(accountsRoutes(ctx));
  router.use(walletsRoutes(ctx));
  router.use(mpcRoutes(ctx));
  router.use(transactionsRoutes(ctx));
  router.use(coSignerRoutes(ctx));
  return router;
}
