import { request } from 'undici';
import { z } from 'zod';
import { AtomicAmountSchema, utf8Bytes } from '@settlement/protocol';
import { HttpError } from '../errors';
import type { AuditAction } from '../store/logs';
import type { Services } from './services';

export const DepositRequestSchema = z.strictObject({
  walletId: z.string().min(1).max(128),
  asset: z.string().min(1).max(32),
  amountAtomic: AtomicAmountSchema,
});
export const CoSignerSwitchSchema = z.strictObject({ online: z.boolean() });

export type ControlResponse = { status: number; body: Uint8Array; requestId: string | null };

/**
 * Forwards one sandbox control-plane call for the configured organization with the admin
 * token, which never leaves the BFF.
 */
export async function callSandbox(
  services: Services,
  input: {
    operator: string;
    action: AuditAction;
    method: 'POST' | 'PUT';
    path: 'deposits' | 'co-signer';
    body: unknown;
  },
): Promise<ControlResponse> {
  const sandbox = services.config.sandbox;
  if (!sandbox)
    throw new HttpError('RESOURCE_NOT_FOUND', 'Sandbox tools are off for a remote upstream.');
  const url = `${sandbox.url}/sandbox/orgs/${encodeURIComponent(services.upstream.orgId)}/${input.path}`;
  const started = performance.now();
  let status: number | null = null;
  let requestId: string | null = null;
  try {
    const response = await request(url, {
      method: input.method,
      dispatcher: services.upstream.dispatcher,
      headers: {
        authorization: `Bearer ${sandbox.adminToken}`,
        'content-type': 'application/json',
      },
      body: utf8Bytes(JSON.stringify(input.body)),
      signal: AbortSignal.timeout(services.config.upstreamTimeoutMs),
    });
    status = response.statusCode;
    const header = response.headers['x-request-id'];
    requestId = typeof header === 'string' ? header : null;
    const body = new Uint8Array(await response.body.arrayBuffer());
    return { status, body, requestId };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError('UPSTREAM_UNAVAILABLE', 'The sandbox control plane did not answer.');
  } finally {
    await services.logs.audit({
      at: services.now(),
      operator: input.operator,
      action: input.action,
      outcome: status === null ? 'unknown' : status < 300 ? 'succeeded' : `failed ${status}`,
      operationId: null,
      idempotencyKey: null,
      upstreamRequestId: requestId,
      correlationId: null,
      resourceId: null,
      detail: input.path === 'co-signer' ? JSON.stringify(input.body) : null,
    });
    services.logger.info(
      {
        operator: input.operator,
        operation: input.action,
        status,
        ms: Math.round(performance.now() - started),
        upstreamRequestId: requestId,
      },
      'sandbox control call',
    );
  }
}
