import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutcomeUnknownError, type SettlementClient } from '@settlement/client';
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
import { PENDING_LEASE_MS, createIdempotentExecutor, requestHashOf } from './idempotent';

/**
 * The lease of a pending journal row on a shared database follows the configured upstream
 * timeout: a replica never resends an operation another replica may still be sending, and one
 * left by a replica that died (SIGKILL) is taken over once that replica's budget is surely over.
 * Found by the fault campaign with two replicas: after a kill, retries on the other replica were
 * "in progress" for a fixed minute, while the calls they waited for had a 12 s budget.
 *
 * A retry within that lease gets 409 "in progress". Its message says to retry, so the envelope
 * says so too: `retryable: true` with a Retry-After hint (it was `false`, the flag of a changed
 * request under the same key, which a browser must never retry). SQLite has one writer, whose
 * duplicates wait in process, so it never answers "in progress".
 *
 * The lease is the row's age on PostgreSQL's clock, which also stamps the row: replicas whose
 * clocks disagree still agree on it (a replica running ahead took live leases over early).
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

/** Another replica claims the operation and, as far as this one can tell, is sending it. */
async function claimedElsewhere(operationId: string): Promise<void> {
  if (!operation) throw new Error('wallets.create is not in the allowlist');
  const isClaimed = await bff.bff.services.journal.begin({
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
}

/** Moves the claim `ms` into the past, as the database's clock reads it. */
async function ageClaim(operationId: string, ms: number): Promise<void> {
  const changed = await bff.sql.run(
    'UPDATE journal SET created_at = created_at - ?, updated_at = updated_at - ? WHERE operation_id = ?',
    [ms, ms, operationId],
  );
  expect(changed).toBe(1);
}

/** This replica's executor with the given upstream timeout, its clock `skewMs` off. */
function executorWith(upstreamTimeoutMs: number, skewMs = 0) {
  const { services } = bff.bff;
  return createIdempotentExecutor(
    {
      ...services,
      config: { ...services.config, upstreamTimeoutMs },
      now: () => Date.now() + skewMs,
    },
    { inProgressWaitMs: 200 },
  );
}

function input(operationId: string) {
  if (!operation) throw new Error('wallets.create is not in the allowlist');
  return {
    operator: 'treasury',
    operationId,
    operation,
    path: '/api/v1/wallets',
    consoleBody: BODY,
    requestId: `bff_${operationId}`,
  };
}

describe('the pending lease on a shared database', () => {
  it('is 60 s with the default 10 s upstream timeout', () => {
    expect(PENDING_LEASE_MS).toBe(60_000);
  });

  it('keeps a row "in progress" while the sender may still be within a long timeout', async () => {
    await claimedElsewhere('lease-long-timeout');
    // 30 s per attempt, 3 attempts: a claim 70 s old may still be on its last attempt.
    await ageClaim('lease-long-timeout', 70_000);
    await expect(executorWith(30_000).execute(input('lease-long-timeout'))).rejects.toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
      details: [{ operationId: 'lease-long-timeout', state: 'pending' }],
    });
  });

  it('takes over a row of a dead sender once a short timeout is surely spent', async () => {
    await claimedElsewhere('lease-short-timeout');
    // 4 s per attempt: 25 s after the claim its sender has given up or died.
    await ageClaim('lease-short-timeout', 25_000);
    const answer = await executorWith(4_000).execute(input('lease-short-timeout'));
    expect(answer.isReplay).toBe(false);
    const entry = await bff.bff.services.journal.get('lease-short-timeout');
    expect(entry?.state).not.toBe('pending');
  });

  it("is judged on the database's clock: a replica whose clock runs ahead waits all the same", async () => {
    await claimedElsewhere('lease-clock-ahead');
    // This replica's clock is 10 minutes ahead; the claim is a second old for the database.
    await ageClaim('lease-clock-ahead', 1_000);
    await expect(
      executorWith(10_000, 10 * 60_000).execute(input('lease-clock-ahead')),
    ).rejects.toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
      details: [{ operationId: 'lease-clock-ahead', state: 'pending' }],
    });
  });

  it("is judged on the database's clock: a replica whose clock runs behind takes over a dead sender's row", async () => {
    await claimedElsewhere('lease-clock-behind');
    await ageClaim('lease-clock-behind', 70_000);
    // 10 minutes behind, its own clock would call the 70 s old claim fresh for a long while.
    const answer = await executorWith(10_000, -10 * 60_000).execute(input('lease-clock-behind'));
    expect(answer.isReplay).toBe(false);
    expect((await bff.bff.services.journal.get('lease-clock-behind'))?.state).not.toBe('pending');
  });
});

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
    await claimedElsewhere('in-progress-retryable');
    const executor = createIdempotentExecutor(bff.bff.services, { inProgressWaitMs: 100 });
    const error = await executor.execute(input('in-progress-retryable')).then(
      () => null,
      (failure: unknown) => failure,
    );
    const answer = await answerFor(error);
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

describe('a sender whose lease ran out while another replica settled its operation', () => {
  it('answers what the other replica recorded and leaves the journal settled', async () => {
    const operationId = 'late-unknown';
    const { services } = bff.bff;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // This replica's call is slow, then ends with no answer (all attempts lost).
    const slow = {
      async send(): Promise<never> {
        await gate;
        throw new OutcomeUnknownError({
          attempts: 3,
          idempotencyKey: `key-${operationId}`,
          lastStatus: 503,
          lastRequestId: 'req-lost',
          cause: new Error('socket hang up'),
        });
      },
    } as unknown as SettlementClient;
    const executor = createIdempotentExecutor({
      ...services,
      upstream: { ...services.upstream, clientFor: () => ({ client: slow, keyName: 'slow' }) },
    });
    const sending = executor.execute(input(operationId));
    await expect.poll(async () => (await services.journal.get(operationId))?.state).toBe('pending');
    // The other replica took over after the lease and got the upstream's answer.
    const answer = new TextEncoder().encode('{"id":"w-1"}');
    await services.journal.finish(operationId, {
      state: 'succeeded',
      status: 201,
      response: answer,
      upstreamRequestId: 'req-other',
      correlationId: 'corr-other',
    });
    release();
    await expect(sending).resolves.toMatchObject({ status: 201, body: answer, isReplay: true });
    expect(await services.journal.get(operationId)).toMatchObject({
      state: 'succeeded',
      upstreamRequestId: 'req-other',
    });
  });
});
