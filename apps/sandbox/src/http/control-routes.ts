import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context';
import { HttpError } from '../errors';
import { FaultsPatchSchema, getFaults, updateFaults } from '../domain/faults';
import {
  CreateApiKeyRequestSchema,
  createApiKey,
  createOrg,
  requireOrg,
  setCoSignerOnline,
} from '../domain/orgs';
import { jsonBody } from './body';
import { parseBody } from './validation';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Bearer admin token, compared in constant time (over digests, so lengths never leak). */
function requireAdmin(adminToken: string) {
  const expected = digest(adminToken);
  return (req: Request, _res: Response, next: NextFunction): void => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer (\S+)$/.exec(header);
    if (!match?.[1] || !timingSafeEqual(digest(match[1]), expected)) {
      throw new HttpError('UNAUTHENTICATED', 'The sandbox admin token is required.');
    }
    next();
  };
}

const CreateOrgSchema = z.strictObject({ name: z.string().trim().min(1).max(200) });
const CoSignerSchema = z.strictObject({ online: z.boolean() });

/** The sandbox control plane (DESIGN.md): orgs, API keys, Co-Signer switch, faults. */
export function controlRoutes(ctx: AppContext, adminToken: string): Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  router.use(requireAdmin(adminToken));

  router.post('/orgs', (req, res) => {
    const { name } = parseBody(CreateOrgSchema, jsonBody(req));
    const org = createOrg(ctx.db, name, new Date(ctx.nowMs()));
    res.status(201).json({ orgId: org.id, name: org.name });
  });

  router.post('/orgs/:orgId/api-keys', (req, res) => {
    const request = parseBody(CreateApiKeyRequestSchema, jsonBody(req));
    res.status(201).json(createApiKey(ctx.db, req.params.orgId, request, new Date(ctx.nowMs())));
  });

  router.put('/orgs/:orgId/co-signer', (req, res) => {
    const { online } = parseBody(CoSignerSchema, jsonBody(req));
    const org = setCoSignerOnline(ctx.db, req.params.orgId, online, new Date(ctx.nowMs()));
    res.json({ orgId: org.id, online: org.isCoSignerOnline, lastSeenAt: org.coSignerLastSeenAt });
  });

  router.get('/orgs/:orgId/faults', (req, res) => {
    const org = requireOrg(ctx.db, req.params.orgId);
    res.json(getFaults(ctx.db, org.id));
  });

  router.put('/orgs/:orgId/faults', (req, res) => {
    const patch = parseBody(FaultsPatchSchema, jsonBody(req));
    res.json(updateFaults(ctx.db, req.params.orgId, patch));
  });

  return router;
}
