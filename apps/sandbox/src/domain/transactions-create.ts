import { createHash } from 'node:crypto';
import {
  isTronAddress,
  type CreateTransactionRequest,
  type Transaction,
} from '@settlement/protocol';
import { timeOrderedId } from '@settlement/protocol/ids';
import { appendEvent } from '../events/outbox';
import { HttpError } from '../errors';
import type { Db } from '../store/db';
import { prepared } from '../store/prepared';
import { assetCatalog, isChainEnabled, isKnownChain } from './assets';
import { getFaults, updateFaults } from './faults';
import { availableOf } from './ledger';
import { signingReadiness } from './mpc';
import { requireWallet } from './wallets';
import { quoteFee } from './transactions-fees';
import { reserve } from './transactions-postings';
import {
  findByClientReference,
  insertTransaction,
  type NewTransaction,
  type TransactionRow,
} from './transactions-store';
import { toTransaction, transactionEventData } from './transactions-view';

export type RequestContext = {
  orgId: string;
  requestId: string;
  correlationId: string;
  idempotencyKey: string;
  nowMs: number;
};

/** The org's wallet at `address` on `chain` (the destination of an internal transfer). */
function walletByAddress(db: Db, orgId: string, chain: string, address: string) {
  return walletAt(db).get(orgId, chain, address) ?? null;
}

const walletAt = prepared<[string, string, string], { id: string; accountId: string }>(
  'SELECT id, account_id AS accountId FROM wallets WHERE org_id = ? AND chain = ? AND address = ?',
);
const insertIntent = prepared<[string, string, string, string, string]>(
  `INSERT INTO signing_intents (id, org_id, transaction_id, status, digest, created_at)
   VALUES (?, ?, ?, 'PENDING', ?, ?)`,
);

/** A short, stable billing reference derived from the transaction id. */
export function billingReferenceFor(id: string): string {
  return `BILL-${id.replace(/-/g, '').slice(0, 12).toUpperCase()}`;
}

/** The digest the Co-Signer signs for a transaction (no secret: a hash of public fields). */
function signingDigest(row: NewTransaction): string {
  return createHash('sha256')
    .update(
      [row.id, row.chain, row.asset, row.amountAtomic, row.fromAddress, row.toAddress].join('\n'),
    )
    .digest('hex');
}

/**
 * POST /api/v1/transactions. Runs inside the idempotent SQLite transaction: every check, the
 * rows, the reservation, the signing intent and the events commit together, or nothing does.
 * The route validated the body's shape; then: WITHDRAWALS_BLOCKED, wallet, chain and asset, address, amount, fee
 * limit, signing readiness, clientReference, available balance.
 */
export function createWithdrawal(
  db: Db,
  request: RequestContext,
  body: CreateTransactionRequest,
): Transaction {
  const { orgId } = request;
  const faults = getFaults(db, orgId);
  if (faults.withdrawalsBlocked) {
    throw new HttpError('WITHDRAWALS_BLOCKED', 'Withdrawals are blocked for this organization.');
  }
  const wallet = requireWallet(db, orgId, body.walletId);
  if (wallet.status !== 'ACTIVE') {
    throw new HttpError('WITHDRAWALS_BLOCKED', `The wallet is ${wallet.status}, not ACTIVE.`);
  }
  const chain = wallet.chain;
  if (!isKnownChain(chain) || !isChainEnabled(db, orgId, chain)) {
    throw new HttpError('UNSUPPORTED_CHAIN', `${chain} is not enabled for this organization.`);
  }
  const catalog = assetCatalog(db, orgId);
  const entry = catalog.find((a) => a.asset === body.asset);
  const onChain = entry?.chains.find((c) => c.chain === chain && c.enabled);
  if (!entry || !onChain) {
    throw new HttpError('UNSUPPORTED_ASSET', `${body.asset} is not available on ${chain}.`);
  }
  if (!isTronAddress(body.toAddress)) {
    throw new HttpError('INVALID_ADDRESS', `toAddress is not a valid ${chain} address.`);
  }
  if (body.toAddress === wallet.address) {
    throw new HttpError('INVALID_ADDRESS', 'toAddress is the address of the source wallet.');
  }
  const amount = BigInt(body.amountAtomic);
  if (amount <= 0n) {
    throw new HttpError('VALIDATION_ERROR', 'amountAtomic must be greater than zero.', [
      { field: 'amountAtomic', issue: 'must be greater than zero' },
    ]);
  }
  const fee = quoteFee(onChain.contractAddress !== null, body.chainParams?.feeLimitAtomic);
  if (!fee.ok) throw new HttpError('INVALID_FEE_LIMIT', fee.message);
  const readiness = signingReadiness(db, orgId, chain);
  if (!readiness.isReady) {
    throw new HttpError(
      'UPSTREAM_UNAVAILABLE',
      `Signing is not available: ${readiness.reason ?? 'not ready'}`,
    );
  }
  if (
    body.clientReference !== undefined &&
    findByClientReference(db, orgId, body.clientReference)
  ) {
    throw new HttpError('CLIENT_REFERENCE_CONFLICT');
  }
  const walletRef = { id: wallet.id, orgId, chain };
  const { quote } = fee;
  const needs = new Map<string, bigint>([[body.asset, amount]]);
  needs.set(quote.asset, (needs.get(quote.asset) ?? 0n) + quote.reservedFeeAtomic);
  for (const [asset, needed] of needs) {
    const available = availableOf(db, walletRef, asset);
    if (available < needed) {
      throw new HttpError(
        'INSUFFICIENT_AVAILABLE_BALANCE',
        `Available ${asset} balance ${available} does not cover ${needed} (amount and network fee).`,
        [{ asset, availableAtomic: available.toString(), requiredAtomic: needed.toString() }],
      );
    }
  }

  const forcedOutcome = faults.nextTransactionOutcome;
  if (forcedOutcome !== null) updateFaults(db, orgId, { nextTransactionOutcome: null });

  const destination = walletByAddress(db, orgId, chain, body.toAddress);
  const isInternal = destination !== null;
  const at = new Date(request.nowMs).toISOString();
  const id = timeOrderedId();
  const destinationId = isInternal ? timeOrderedId() : null;
  const groupId = isInternal ? timeOrderedId() : null;
  const source: NewTransaction = {
    id,
    orgId,
    walletId: wallet.id,
    accountId: wallet.account_id,
    type: isInternal ? 'INTERNAL_TRANSFER' : 'WITHDRAWAL',
    status: 'PENDING',
    stage: 'RESERVED',
    chain,
    asset: body.asset,
    amountAtomic: amount.toString(),
    direction: 'DEBIT',
    transferKind: isInternal ? 'INTERNAL_TRANSFER' : 'EXTERNAL_WITHDRAWAL',
    fromAddress: wallet.address,
    toAddress: body.toAddress,
    clientReference: body.clientReference ?? null,
    transactionGroupId: groupId,
    counterpartTransactionId: destinationId,
    isSourceLeg: 1,
    feeAsset: quote.asset,
    estimatedFeeAtomic: quote.estimatedFeeAtomic.toString(),
    reservedFeeAtomic: quote.reservedFeeAtomic.toString(),
    // No fee is consumed before the chain includes the transfer; broadcast sets the actual fee.
    actualFeeAtomic: null,
    feeLimitAtomic: quote.feeLimitAtomic === null ? null : quote.feeLimitAtomic.toString(),
    forcedOutcome,
    txHash: null,
    blockNumber: null,
    confirmations: 0,
    broadcastAt: null,
    failureCode: null,
    failureMessage: null,
    billingReference: billingReferenceFor(id),
    correlationId: request.correlationId,
    requestId: request.requestId,
    idempotencyKey: request.idempotencyKey,
    createdAtMs: request.nowMs,
    createdAt: at,
    updatedAt: at,
  };
  // Every column as written (TEXT amounts, INTEGER counts): the row reads back as this.
  const stored: TransactionRow = { seq: insertTransaction(db, source), ...source };
  if (destination !== null && destinationId !== null) {
    insertTransaction(db, {
      ...source,
      id: destinationId,
      walletId: destination.id,
      accountId: destination.accountId,
      stage: 'DESTINATION',
      direction: 'CREDIT',
      clientReference: null,
      counterpartTransactionId: id,
      isSourceLeg: 0,
      feeAsset: null,
      estimatedFeeAtomic: null,
      reservedFeeAtomic: null,
      actualFeeAtomic: null,
      feeLimitAtomic: null,
      forcedOutcome: null,
      billingReference: billingReferenceFor(destinationId),
    });
  }
  insertIntent(db).run(`intent_${timeOrderedId()}`, orgId, id, signingDigest(source), at);

  // The reservation posts ledger entries; the row itself stays as stored.
  const emit = (type: 'transaction.created' | 'transaction.updated') => {
    appendEvent(db, {
      orgId,
      type,
      correlationId: request.correlationId,
      occurredAt: at,
      data: transactionEventData(db, stored),
    });
  };
  emit('transaction.created');
  reserve(db, stored, at);
  emit('transaction.updated');
  return toTransaction(db, stored, {
    decimalsOf: (asset) => catalog.find((a) => a.asset === asset)?.decimals ?? null,
  });
}
