import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AddressBookEntrySchema,
  WithdrawalRequestCreatedSchema,
  WithdrawalRequestListSchema,
  tronAddressFromPublicKey,
} from '@settlement/protocol';
import { z } from 'zod';
import { codeOf, isAnswer, send, type Operator, type Reply } from './bff-client';
import { intBetween, pick, type Rng } from './schedule';

/**
 * The random workload, driven through the BFF as signed-in operators (treasury sends, admins
 * approve, support reads), with one X-Operation-Id per logical action kept across retries, as
 * the console does. Everything the campaign asked for is recorded here, and the invariants are
 * checked against this record at the end.
 */

const TRX = 1_000_000n;

type Refusal = { status: number; code: string | null; message: string };

export type WithdrawalOp = {
  operationId: string;
  destination: 'internal' | 'address-book' | 'external';
  body: { walletId: string; asset: 'TRX'; toAddress: string; amountAtomic: string };
  /** created: 201 with a transaction; request: 202 awaiting approval; refused: a 4xx. */
  outcome: 'created' | 'request' | 'refused' | 'unresolved';
  transactionId: string | null;
  withdrawalRequestId: string | null;
  refusal: Refusal | null;
  attempts: number;
};

type DepositOp = {
  walletId: string;
  amountAtomic: string;
  /** A fresh address per deposit: the tag that finds it among the transactions. */
  fromAddress: string;
  outcome: 'accepted' | 'refused' | 'unknown';
};

type Wallet = { id: string; address: string; accountId: string };

export type Operators = {
  admin: Operator;
  admin2: Operator;
  treasury: Operator;
  support: Operator;
};

export type CampaignLog = {
  withdrawals: WithdrawalOp[];
  deposits: DepositOp[];
  wallets: Wallet[];
  walletOps: WalletOp[];
  accounts: string[];
  addressBook: string[];
  /** Answers no operation should ever get (5xx other than 503, non-envelope errors, ...). */
  anomalies: string[];
  /** 500 INTERNAL_ERROR answers (retryable by contract), by request id. */
  internalErrors: string[];
};

export function newCampaignLog(): CampaignLog {
  return {
    withdrawals: [],
    deposits: [],
    wallets: [],
    walletOps: [],
    accounts: [],
    addressBook: [],
    anomalies: [],
    internalErrors: [],
  };
}

function randomTronAddress(): string {
  const key = randomBytes(65);
  key[0] = 0x04;
  return tronAddressFromPublicKey(key);
}

const CreatedSchema = z.looseObject({ id: z.string() });
const WalletCreatedSchema = z.looseObject({ id: z.string(), address: z.string() });

function refusalOf(reply: Reply): Refusal {
  if (!isAnswer(reply)) return { status: 0, code: null, message: reply.error };
  const json = reply.json as { message?: unknown } | null;
  return {
    status: reply.status,
    code: codeOf(reply),
    message: typeof json?.message === 'string' ? json.message : reply.text.slice(0, 200),
  };
}

/**
 * No answer, a 5xx, or "in progress" (another replica is sending it, or died while sending it
 * and its lease has not run out): the console keeps the operation id and tries again.
 */
function isRetryable(reply: Reply): boolean {
  return !isAnswer(reply) || reply.status >= 500 || isInProgress(reply);
}

function isInProgress(reply: Reply): boolean {
  if (!isAnswer(reply) || reply.status !== 409 || codeOf(reply) !== 'IDEMPOTENCY_CONFLICT') {
    return false;
  }
  const details = (reply.json as { details?: unknown } | null)?.details;
  return (
    Array.isArray(details) &&
    details.some(
      (d: unknown) =>
        typeof d === 'object' && d !== null && (d as { state?: unknown }).state === 'pending',
    )
  );
}

export type WorkloadContext = {
  ops: Operators;
  record: CampaignLog;
  rng: Rng;
  orgId: string;
  sandboxUrl: string;
  adminToken: string;
  /**
   * After the faults: retry "in progress" too (until a dead replica's lease runs out). During
   * the run an actor moves on instead, as a person would, and comes back at the end.
   */
  isSettling?: boolean;
};

function noteAnomaly(ctx: WorkloadContext, what: string, reply: Reply): void {
  if (!isAnswer(reply)) return;
  // A 500 in the envelope is retryable by contract (e.g. the BFF's disk is full): counted and
  // reported, and the operation is retried like any other retryable answer.
  if (reply.status === 500 && codeOf(reply) === 'INTERNAL_ERROR') {
    ctx.record.internalErrors.push(`${what}: ${reply.requestId ?? '?'}`);
  } else if (reply.status >= 500 && reply.status !== 503) {
    ctx.record.anomalies.push(`${what}: ${reply.status} ${reply.text.slice(0, 200)}`);
  }
  if (reply.status >= 400 && codeOf(reply) === null && reply.status !== 404) {
    ctx.record.anomalies.push(`${what}: ${reply.status} outside the error envelope`);
  }
}

/** Sends (or resends) one withdrawal with its operation id until it gets a definite answer. */
export async function sendWithdrawal(
  ctx: WorkloadContext,
  op: WithdrawalOp,
  maxAttempts: number,
): Promise<void> {
  for (let i = 0; i < maxAttempts; i += 1) {
    op.attempts += 1;
    const reply = await ctx.ops.treasury.call('POST', '/bff/api/v1/transactions', {
      body: op.body,
      operationId: op.operationId,
    });
    noteAnomaly(ctx, `withdrawal ${op.operationId}`, reply);
    if (isRetryable(reply)) {
      op.outcome = 'unresolved';
      op.refusal = refusalOf(reply);
      if (isInProgress(reply) && ctx.isSettling !== true) return;
      await sleep(intBetween(ctx.rng, 100, 600));
      continue;
    }
    if (!isAnswer(reply)) return;
    if (reply.status === 201) {
      op.outcome = 'created';
      op.transactionId = CreatedSchema.parse(reply.json).id;
      op.refusal = null;
    } else if (reply.status === 202) {
      op.outcome = 'request';
      op.withdrawalRequestId = WithdrawalRequestCreatedSchema.parse(
        reply.json,
      ).withdrawalRequest.id;
      op.refusal = null;
    } else {
      op.outcome = 'refused';
      op.refusal = refusalOf(reply);
    }
    return;
  }
}

export type WalletOp = {
  operationId: string;
  accountId: string;
  outcome: 'created' | 'refused' | 'unresolved';
};

export async function createWallet(
  ctx: WorkloadContext,
  accountId: string,
  operationId: string,
  maxAttempts: number,
): Promise<void> {
  const op: WalletOp = { operationId, accountId, outcome: 'unresolved' };
  ctx.record.walletOps.push(op);
  await sendWallet(ctx, op, maxAttempts);
}

/** Sends (or resends) one wallet creation with its operation id until a definite answer. */
export async function sendWallet(
  ctx: WorkloadContext,
  op: WalletOp,
  maxAttempts: number,
): Promise<void> {
  for (let i = 0; i < maxAttempts; i += 1) {
    const reply = await ctx.ops.treasury.call('POST', '/bff/api/v1/wallets', {
      body: { chain: 'tron:nile', accountId: op.accountId },
      operationId: op.operationId,
    });
    noteAnomaly(ctx, `wallet ${op.operationId}`, reply);
    if (isRetryable(reply)) {
      if (isInProgress(reply) && ctx.isSettling !== true) return;
      await sleep(intBetween(ctx.rng, 100, 600));
      continue;
    }
    if (isAnswer(reply) && reply.status === 201) {
      const wallet = WalletCreatedSchema.parse(reply.json);
      op.outcome = 'created';
      if (!ctx.record.wallets.some((w) => w.id === wallet.id)) {
        ctx.record.wallets.push({
          id: wallet.id,
          address: wallet.address,
          accountId: op.accountId,
        });
      }
    } else {
      op.outcome = 'refused';
    }
    return;
  }
}

async function createAccount(ctx: WorkloadContext): Promise<void> {
  const reply = await ctx.ops.treasury.call('POST', '/bff/api/v1/ledger/accounts', {
    body: { name: `Chaos ${ctx.record.accounts.length + 1}` },
  });
  noteAnomaly(ctx, 'account', reply);
  if (isAnswer(reply) && reply.status === 201) {
    ctx.record.accounts.push(CreatedSchema.parse(reply.json).id);
  }
}

/** A deposit through the sandbox control plane, tagged by a fresh fromAddress. */
export async function deposit(ctx: WorkloadContext, walletId: string, amountAtomic: bigint) {
  const op: DepositOp = {
    walletId,
    amountAtomic: amountAtomic.toString(),
    fromAddress: randomTronAddress(),
    outcome: 'unknown',
  };
  ctx.record.deposits.push(op);
  const reply = await send(
    ctx.sandboxUrl,
    'POST',
    `/sandbox/orgs/${encodeURIComponent(ctx.orgId)}/deposits`,
    {
      headers: { authorization: `Bearer ${ctx.adminToken}` },
      body: { walletId, asset: 'TRX', amountAtomic: op.amountAtomic, fromAddress: op.fromAddress },
    },
  );
  if (isAnswer(reply)) op.outcome = reply.status === 202 ? 'accepted' : 'refused';
}

function newWithdrawal(
  ctx: WorkloadContext,
  destination: WithdrawalOp['destination'],
): WithdrawalOp | null {
  const { wallets } = ctx.record;
  if (wallets.length === 0) return null;
  const from = pick(ctx.rng, wallets);
  let toAddress: string;
  if (destination === 'internal') {
    const others = wallets.filter((w) => w.id !== from.id);
    if (others.length === 0) return null;
    toAddress = pick(ctx.rng, others).address;
  } else if (destination === 'address-book') {
    if (ctx.record.addressBook.length === 0) return null;
    toAddress = pick(ctx.rng, ctx.record.addressBook);
  } else {
    toAddress = randomTronAddress();
  }
  const amount = BigInt(intBetween(ctx.rng, 1, 40)) * TRX + BigInt(intBetween(ctx.rng, 0, 999));
  const op: WithdrawalOp = {
    operationId: `chaos-wd-${randomBytes(8).toString('hex')}`,
    destination,
    body: { walletId: from.id, asset: 'TRX', toAddress, amountAtomic: amount.toString() },
    outcome: 'unresolved',
    transactionId: null,
    withdrawalRequestId: null,
    refusal: null,
    attempts: 0,
  };
  ctx.record.withdrawals.push(op);
  return op;
}

/** An admin proposes an address, the second admin approves it (four-eyes). */
async function addAddressBookEntry(ctx: WorkloadContext): Promise<void> {
  const address = randomTronAddress();
  const proposed = await ctx.ops.admin.call('POST', '/bff/address-book', {
    body: { chain: 'tron:nile', address, label: `Chaos ${ctx.record.addressBook.length + 1}` },
  });
  noteAnomaly(ctx, 'address-book propose', proposed);
  if (!isAnswer(proposed) || proposed.status >= 300) return;
  const entry = AddressBookEntrySchema.parse(proposed.json);
  const approved = await ctx.ops.admin2.call(
    'POST',
    `/bff/address-book/${encodeURIComponent(entry.id)}/approve`,
  );
  noteAnomaly(ctx, 'address-book approve', approved);
  if (isAnswer(approved) && approved.status === 200) ctx.record.addressBook.push(address);
}

/** The second admin works through the queue: mostly approve, sometimes reject. */
export async function reviewRequests(ctx: WorkloadContext, approveAll: boolean): Promise<void> {
  const listed = await ctx.ops.admin2.call(
    'GET',
    '/bff/withdrawal-requests?status=AWAITING_APPROVAL',
  );
  noteAnomaly(ctx, 'request list', listed);
  if (!isAnswer(listed) || listed.status !== 200) return;
  const { items } = WithdrawalRequestListSchema.parse(listed.json);
  for (const request of items) {
    const path = `/bff/withdrawal-requests/${encodeURIComponent(request.id)}`;
    const isReject = !approveAll && ctx.rng() < 0.15;
    const reply = isReject
      ? await ctx.ops.admin2.call('POST', `${path}/reject`, { body: { reason: 'chaos review' } })
      : await ctx.ops.admin2.call('POST', `${path}/approve`);
    noteAnomaly(ctx, `request ${request.id} ${isReject ? 'reject' : 'approve'}`, reply);
  }
}

async function readSomething(ctx: WorkloadContext): Promise<void> {
  const paths = [
    '/bff/api/v1/transactions?limit=20',
    '/bff/api/v1/wallets',
    '/bff/overview',
    '/bff/withdrawal-requests',
  ];
  const wallet = ctx.record.wallets.length > 0 ? pick(ctx.rng, ctx.record.wallets) : null;
  if (wallet) paths.push(`/bff/api/v1/wallets/${wallet.id}/balances`);
  const reply = await ctx.ops.support.call('GET', pick(ctx.rng, paths));
  noteAnomaly(ctx, 'read', reply);
}

/** One random step of one actor. */
export async function step(ctx: WorkloadContext): Promise<void> {
  const roll = ctx.rng();
  const { record } = ctx;
  if (record.accounts.length < 4 && roll < 0.05) return createAccount(ctx);
  if (record.wallets.length < 8 && roll < 0.12 && record.accounts.length > 0) {
    return createWallet(
      ctx,
      pick(ctx.rng, record.accounts),
      `chaos-wallet-${randomBytes(6).toString('hex')}`,
      3,
    );
  }
  if (roll < 0.25 && record.wallets.length > 0) {
    const wallet = pick(ctx.rng, record.wallets);
    return deposit(ctx, wallet.id, BigInt(intBetween(ctx.rng, 50, 400)) * TRX);
  }
  if (roll < 0.3 && record.addressBook.length < 4) return addAddressBookEntry(ctx);
  if (roll < 0.7) {
    const destination = pick(ctx.rng, [
      'internal',
      'internal',
      'address-book',
      'external',
    ] as const);
    const op = newWithdrawal(ctx, destination);
    if (op) await sendWithdrawal(ctx, op, 3);
    return;
  }
  if (roll < 0.8) return reviewRequests(ctx, false);
  return readSomething(ctx);
}
