import type { NextFunction, Request, Response } from 'express';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../context';
import { HttpError } from '../errors';
import { getFaults } from '../domain/faults';
import { principalOf } from './auth';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Fault switches that act on the whole /api/v1 surface, after authentication:
 * `latencyMs` delays every response; `upstreamUnavailableRate` answers that fraction of
 * mutating requests 503 UPSTREAM_UNAVAILABLE before anything is done. The simulated
 * Co-Signer's own endpoints are exempt (it is the upstream being simulated).
 */
export function faultsMiddleware(ctx: AppContext, random: () => number = Math.random) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const faults = getFaults(ctx.db, principalOf(req).orgId);
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);
    const isExempt = req.path.startsWith('/co-signer/');
    if (
      MUTATING.has(req.method) &&
      !isExempt &&
      faults.upstreamUnavailableRate > 0 &&
      random() < faults.upstreamUnavailableRate
    ) {
      throw new HttpError(
        'UPSTREAM_UNAVAILABLE',
        'A required upstream service is unavailable (simulated). Retry with the same idempotency key.',
      );
    }
    next();
  };
}
