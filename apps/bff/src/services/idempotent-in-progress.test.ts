import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '@settlement/protocol';
import { errorMiddleware, requestIdMiddleware } from '../errors';
import {
  startBff,
  startSandbox,
  type BffInstance,
  type SandboxProcess,
} from '../test-support/harness';
import { usePostgres, type TestPostgres } from '../test-support/postgres';
import { matchOperation } from './operations';
import { createIdempotentExecutor, requestHashOf } from './idempotent';

/**
 * On a shared database (PostgreSQL), a retry that finds the operation claimed by another
 * replica within its lease gets 409 "in progress". Its message says to retry, so the envelope
 * must say so too: `retryable: true` with a Retry-After hint (it was `false`, the flag of a
 * changed request under the same key, which a browser must never retry). SQLite has one writer,
 * whose duplicates wait in process, so it never answers "in progress".
 */

let sandbox: SandboxProcess;
let postgres: TestPostgres;
let bff: BffInstance;

beforeAll(async () => {
  [sandbox, postgres] = await Promise.all([startSandbox(), usePostgres()]);
  bff = await startBff({ sandbox, databaseUrl: await postgres.createDatabase() });
}, 120_000);

afterAll(async () => {
  await bff.close();
  await sandbox.stop();
  await postgres.release();
});

const operation = matchOperation('POST', '/api/v1/wallets');
const BODY = new Uint8Array([123, 125]);

/** The error a duplicate gets while another replica holds a fresh claim of `operationId`. */
async function inProgressError(operationId: string): Promise<unknown> {
  if (!operation) throw new Error('wallets.create is not in the allowlist');
  const { services } = bff.bff;
  const isClaimed = await services.journal.begin({
    operationId,
    operator: 'treasury',
    operation: operation.name,
    idempotencyKey: `key-${operationId}`,
    method: 'POST',
    path: '/api/v1/wallets',
    requestHash: requestHashOf('treasury', operation, BODY),
    body: BODY,
    bodyHash: 'body-hash',
    clientReference: null,
  });
  expect(isClaimed).toBe(true);
  const executor = createIdempotentExecutor(services, { inProgressWaitMs: 100 });
  return executor
    .execute({
      operator: 'treasury',
      operationId,
      operation,
      path: '/api/v1/wallets',
      consoleBody: BODY,
      requestId: `bff_${operationId}`,
    })
    .then(
      () => null,
      (error: unknown) => error,
    );
}

/** What a browser receives for `error`, through the BFF's error middleware. */
async function answerFor(error: unknown) {
  const app = express();
  app.use(requestIdMiddleware);
  app.post('/op', () => {
    throw error;
  });
  app.use(errorMiddleware(pino({ level: 'silent' })));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const port = (server.address() as AddressInfo).port;
    const response = await request(`http://127.0.0.1:${String(port)}/op`, { method: 'POST' });
    return {
      status: response.statusCode,
      retryAfter: response.headers['retry-after'],
      body: ErrorEnvelopeSchema.parse(await response.body.json()),
    };
  } finally {
    server.close();
  }
}

describe("a retry within another replica's pending lease (PostgreSQL)", () => {
  it('is a retryable 409 "in progress" with a Retry-After hint', async () => {
    const answer = await answerFor(await inProgressError('in-progress-retryable'));
    expect(answer.status).toBe(409);
    expect(answer.retryAfter).toBe('1');
    expect(answer.body).toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
      retryable: true,
      details: [{ operationId: 'in-progress-retryable', state: 'pending' }],
    });
    expect(answer.body.message).toMatch(/retry/i);
  });
});
