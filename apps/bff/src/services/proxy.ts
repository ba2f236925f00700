import {
  OutcomeUnknownError,
  SettlementApiError,
  type CancelSignal,
  type RawResponse,
} from '@settlement/client';
import { HttpError } from '../errors';
import type { Operation } from './operations';
import { recordAttempts, type Services } from './services';
import { auditAction, resourceIdOf } from './audit';

/** Whether the path (before `?`) is valid percent-encoded UTF-8, as the upstream requires. */
function isDecodablePath(target: string): boolean {
  const queryAt = target.indexOf('?');
  try {
    decodeURIComponent(queryAt === -1 ? target : target.slice(0, queryAt));
    return true;
  } catch {
    return false;
  }
}

/**
 * One non-journaled operation (reads, and account creation which the interface guards by
 * externalId instead of an idempotency key): signed with the least-privileged key, answered
 * with the upstream's status and bytes unchanged.
 */
export async function proxyOperation(
  services: Services,
  input: {
    operator: string;
    operation: Operation;
    target: string;
    body: Uint8Array | null;
    requestId: string;
    signal: CancelSignal;
  },
): Promise<RawResponse> {
  const { operation } = input;
  // The upstream would only answer 400; refusing here spares it the call and the request log.
  if (!isDecodablePath(input.target)) {
    throw new HttpError('VALIDATION_ERROR', 'The request path is not valid percent-encoding.');
  }
  const chosen = services.upstream.clientFor(operation.scope);
  if (!chosen) {
    throw new HttpError(
      'FORBIDDEN',
      `No configured API key has the scope ${operation.scope ?? 'any'}.`,
    );
  }
  const action = auditAction(operation.name);
  let response: RawResponse;
  try {
    response = await chosen.client.send(operation.method, input.target, {
      body: input.body,
      requestId: input.requestId,
      signal: input.signal,
      onAttempt: recordAttempts(services, {
        operator: input.operator,
        operation: operation.name,
        operationId: null,
      }),
    });
  } catch (error) {
    if (error instanceof OutcomeUnknownError) {
      if (action) {
        await services.logs.audit({
          at: services.now(),
          operator: input.operator,
          action,
          outcome: 'unknown',
          operationId: null,
          idempotencyKey: null,
          upstreamRequestId: error.lastRequestId,
          correlationId: null,
          resourceId: null,
          detail: null,
        });
      }
      throw new HttpError(
        'UPSTREAM_UNAVAILABLE',
        'The upstream did not answer; the outcome is unknown. Check the list before retrying.',
        [{ outcome: 'unknown' }],
      );
    }
    if (error instanceof SettlementApiError) {
      throw new HttpError(
        'UPSTREAM_UNAVAILABLE',
        'The upstream could not be reached or did not answer in time.',
      );
    }
    throw error;
  }
  if (action) {
    await services.logs.audit({
      at: services.now(),
      operator: input.operator,
      action,
      outcome: response.status < 300 ? 'succeeded' : `failed ${response.status}`,
      operationId: null,
      idempotencyKey: null,
      upstreamRequestId: response.requestId,
      correlationId: response.correlationId,
      resourceId: response.status < 300 ? resourceIdOf(response.bodyBytes) : null,
      detail: null,
    });
  }
  return response;
}
