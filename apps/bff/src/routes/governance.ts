import express, { type Response, type Router } from 'express';
import type {
  AddressBookEntry,
  AddressBookList,
  Policy,
  PolicyDecision,
  PolicyVersions,
  WithdrawalRequest,
  WithdrawalRequestList,
} from '@settlement/protocol';
import { requestIdOf } from '../errors';
import type { Governance } from '../governance/governance';
import { requireFreshStepUp } from '../security/step-up';
import { requireRole, requireSession } from './guards';

function send(res: Response, status: number, body: unknown): void {
  res.setHeader('cache-control', 'no-store');
  res.status(status).json(body);
}

/** /bff/policy: read and dry run (any operator), replace (admin, a new version). */
export function policyRoutes(governance: Governance): Router {
  const router = express.Router();
  router.get('/', async (_req, res) => {
    requireSession(res);
    send(res, 200, (await governance.policy.current()) satisfies Policy);
  });
  router.get('/versions', async (_req, res) => {
    requireSession(res);
    send(res, 200, { items: await governance.policy.versions() } satisfies PolicyVersions);
  });
  router.put('/', async (req, res) => {
    requireRole(res, 'admin');
    const session = requireFreshStepUp(res);
    send(res, 200, (await governance.policy.save(req.body, session)) satisfies Policy);
  });
  router.post('/dry-run', async (req, res) => {
    const session = requireSession(res);
    send(res, 200, (await governance.policy.dryRun(req.body, session)) satisfies PolicyDecision);
  });
  return router;
}

/** /bff/withdrawal-requests: list and detail (any operator), approve, reject, cancel. */
export function withdrawalRequestRoutes(governance: Governance): Router {
  const router = express.Router();
  const { withdrawals } = governance;
  router.get('/', async (req, res) => {
    requireSession(res);
    const status = typeof req.query.status === 'string' ? req.query.status : undefined;
    send(res, 200, { items: await withdrawals.list(status) } satisfies WithdrawalRequestList);
  });
  router.get('/:id', async (req, res) => {
    requireSession(res);
    send(res, 200, (await withdrawals.get(req.params.id)) satisfies WithdrawalRequest);
  });
  router.post('/:id/approve', async (req, res) => {
    const session = requireFreshStepUp(res);
    const request = await withdrawals.approve(req.params.id, session, requestIdOf(res));
    send(res, 200, request satisfies WithdrawalRequest);
  });
  router.post('/:id/reject', async (req, res) => {
    const session = requireFreshStepUp(res);
    send(
      res,
      200,
      (await withdrawals.reject(req.params.id, session, req.body)) satisfies WithdrawalRequest,
    );
  });
  router.post('/:id/cancel', async (req, res) => {
    const session = requireSession(res);
    send(res, 200, (await withdrawals.cancel(req.params.id, session)) satisfies WithdrawalRequest);
  });
  return router;
}

/** /bff/address-book: list (any operator), propose (treasury, admin), approve and remove (admin). */
export function addressBookRoutes(governance: Governance): Router {
  const router = express.Router();
  const book = governance.addressBook;
  router.get('/', async (_req, res) => {
    requireSession(res);
    send(res, 200, { items: await book.list() } satisfies AddressBookList);
  });
  router.post('/', async (req, res) => {
    requireRole(res, 'treasury');
    const session = requireFreshStepUp(res);
    send(res, 201, (await book.add(req.body, session)) satisfies AddressBookEntry);
  });
  router.post('/:id/approve', async (req, res) => {
    const session = requireFreshStepUp(res);
    send(res, 200, (await book.approve(req.params.id, session)) satisfies AddressBookEntry);
  });
  router.delete('/:id', async (req, res) => {
    const session = requireFreshStepUp(res);
    send(res, 200, (await book.remove(req.params.id, session)) satisfies AddressBookEntry);
  });
  return router;
}
