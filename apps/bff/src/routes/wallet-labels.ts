import express, { type Router } from 'express';
import {
  PutWalletLabelRequestSchema,
  WalletSchema,
  type WalletLabel,
  type WalletLabelList,
} from '@settlement/protocol';
import { HttpError } from '../errors';
import type { Services } from '../services/services';
import { recordAttempts } from '../services/services';
import type { StoredWalletLabel, WalletLabelStore } from '../store/wallet-labels';
import { requireRole } from './guards';

const WALLET_ID = /^[\x21-\x7e]{1,128}$/;

function toWire(label: StoredWalletLabel): WalletLabel {
  return { ...label, updatedAt: new Date(label.updatedAt).toISOString() };
}

/** The wallet must exist upstream: a label for an id nobody has would name nothing. */
async function assertWalletExists(services: Services, walletId: string, operator: string) {
  const chosen = services.upstream.clientFor('wallets:read');
  if (!chosen)
    throw new HttpError('FORBIDDEN', 'No configured API key has the scope wallets:read.');
  let status: number;
  let body: unknown = null;
  try {
    const response = await chosen.client.send(
      'GET',
      `/api/v1/wallets/${encodeURIComponent(walletId)}`,
      {
        onAttempt: recordAttempts(services, {
          operator,
          operation: 'wallet-label.check',
          operationId: null,
        }),
      },
    );
    status = response.status;
    if (status === 200) body = JSON.parse(Buffer.from(response.bodyBytes).toString('utf8'));
  } catch {
    throw new HttpError(
      'UPSTREAM_UNAVAILABLE',
      'The upstream could not be reached or did not answer in time.',
    );
  }
  if (status === 404) throw new HttpError('RESOURCE_NOT_FOUND', 'No such wallet.');
  if (status !== 200 || !WalletSchema.safeParse(body).success)
    throw new HttpError('UPSTREAM_UNAVAILABLE', `The upstream answered ${status}.`);
}

/**
 * GET /bff/wallet-labels (any signed-in operator) and PUT /bff/wallet-labels/{walletId}
 * `{label}` (treasury and admin; null removes it). Every change is in the audit log.
 */
export function walletLabelRoutes(services: Services, labels: WalletLabelStore): Router {
  const router = express.Router();
  router.get('/', async (_req, res) => {
    requireRole(res, 'support');
    const body: WalletLabelList = { items: (await labels.list()).map(toWire) };
    res.setHeader('cache-control', 'no-store');
    res.json(body);
  });
  router.put('/:walletId', async (req, res) => {
    const session = requireRole(res, 'treasury');
    const walletId = req.params.walletId;
    if (typeof walletId !== 'string' || !WALLET_ID.test(walletId))
      throw new HttpError('VALIDATION_ERROR', 'walletId must be 1-128 visible ASCII characters.');
    const parsed = PutWalletLabelRequestSchema.safeParse(req.body);
    if (!parsed.success) {
      throw new HttpError(
        'VALIDATION_ERROR',
        parsed.error.issues[0]?.message ?? 'label must be a string or null.',
        parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), issue: issue.message })),
      );
    }
    await assertWalletExists(services, walletId, session.username);
    const before = await labels.get(walletId);
    const { label } = parsed.data;
    let stored: StoredWalletLabel | null = null;
    if (label === null) {
      await labels.remove(walletId);
    } else {
      stored = { walletId, label, updatedAt: services.now(), updatedBy: session.username };
      if (!(await labels.set(stored)))
        throw new HttpError('PLAN_LIMIT_REACHED', 'The wallet label store is full.');
    }
    await services.logs.audit({
      at: services.now(),
      operator: session.username,
      action: 'wallet-label.update',
      outcome: label === null ? 'removed' : 'set',
      operationId: null,
      idempotencyKey: null,
      upstreamRequestId: null,
      correlationId: null,
      resourceId: walletId,
      detail: JSON.stringify({ from: before?.label ?? null, to: label }),
    });
    res.setHeader('cache-control', 'no-store');
    res.json({ walletId, label: stored ? toWire(stored) : null });
  });
  return router;
}
