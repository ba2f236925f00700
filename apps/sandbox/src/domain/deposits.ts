import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  AtomicAmountSchema,
  FINALITY_CONFIRMATIONS,
  isTronAddress,
  tronAddressFromPublicKey,
  type DepositEventData,
} from '@settlement/protocol';
import { timeOrderedId } from '@settlement/protocol/ids';
import { currentHeight, newTxHash } from '../chain/simulated-chain';
import { appendEvent } from '../events/outbox';
import { HttpError } from '../errors';
import type { Db } from '../store/db';
import { prepared } from '../store/prepared';
import { assetCatalog } from './assets';
import { requireOrg } from './orgs';
import { billingReferenceFor } from './transactions-create';
import { getTransaction, insertTransaction, type TransactionRow } from './transactions-store';
import { transactionEventData } from './transactions-view';
import { requireWallet } from './wallets';

/**
 * Deposits come from (simulated) chain observation, injected through the control plane:
 * POST /sandbox/orgs/{orgId}/deposits -> observed in the current block (deposit.observed, a
 * DEPOSIT transaction PENDING with transaction.created) -> confirmations on every block ->
 * at finality deposit.confirmed, transaction.confirmed, the ledger credit, deposit.credited.
 */

export const CreateDepositRequestSchema = z.strictObject({
  walletId: z.string().min(1).max(200),
  asset: z.string().min(1).max(32),
  amountAtomic: AtomicAmountSchema,
  fromAddress: z.string().min(1).max(64).optional(),
});

/** A random, valid TRON address standing for an outside sender. */
function outsideAddress(): string {
  const key = randomBytes(65);
  key[0] = 0x04;
  return tronAddressFromPublicKey(key);
}

const depositOfTransaction = prepared<[string], { id: string }>(
  'SELECT id FROM deposits WHERE transaction_id = ?',
);
const markCredited = prepared<[string, string]>(
  "UPDATE deposits SET status = 'CREDITED', updated_at = ? WHERE transaction_id = ?",
);

export function depositEventData(
  db: Db,
  row: TransactionRow,
): DepositEventData & {
  depositId: string | null;
  fromAddress: string | null;
  toAddress: string | null;
} {
  const deposit = depositOfTransaction(db).get(row.id);
  return {
    transactionId: row.id,
    walletId: row.walletId,
    accountId: row.accountId,
    chain: row.chain,
    asset: row.asset,
    amountAtomic: row.amountAtomic,
    txHash: row.txHash ?? '',
    blockNumber: row.blockNumber,
    confirmations: row.confirmations,
    requiredConfirmations: FINALITY_CONFIRMATIONS,
    depositId: deposit?.id ?? null,
    fromAddress: row.fromAddress,
    toAddress: row.toAddress,
  };
}

export function markDepositCredited(db: Db, transactionId: string, at: string): void {
  markCredited(db).run(at, transactionId);
}

export type DepositRequest = {
  orgId: string;
  requestId: string;
  correlationId: string;
  nowMs: number;
};

export type CreateDepositRequest = z.infer<typeof CreateDepositRequestSchema>;

export function createDeposit(
  db: Db,
  request: DepositRequest,
  body: CreateDepositRequest,
): { depositId: string; txHash: string; transactionId: string } {
  return db
    .transaction(() => {
      requireOrg(db, request.orgId);
      const wallet = requireWallet(db, request.orgId, body.walletId);
      const onChain = assetCatalog(db, request.orgId)
        .find((a) => a.asset === body.asset)
        ?.chains.find((c) => c.chain === wallet.chain && c.enabled);
      if (!onChain) {
        throw new HttpError(
          'UNSUPPORTED_ASSET',
          `${body.asset} is not available on ${wallet.chain}.`,
        );
      }
      if (body.fromAddress !== undefined && !isTronAddress(body.fromAddress)) {
        throw new HttpError('INVALID_ADDRESS', 'fromAddress is not a valid TRON address.');
      }
      if (BigInt(body.amountAtomic) <= 0n) {
        throw new HttpError('VALIDATION_ERROR', 'amountAtomic must be greater than zero.', [
          { field: 'amountAtomic', issue: 'must be greater than zero' },
        ]);
      }
      const at = new Date(request.nowMs).toISOString();
      const id = timeOrderedId();
      const depositId = `dep_${timeOrderedId()}`;
      const txHash = newTxHash();
      insertTransaction(db, {
        id,
        orgId: request.orgId,
        walletId: wallet.id,
        accountId: wallet.account_id,
        type: 'DEPOSIT',
        status: 'PENDING',
        stage: 'OBSERVED',
        chain: wallet.chain,
        asset: body.asset,
        amountAtomic: body.amountAtomic,
        direction: 'CREDIT',
        transferKind: 'DEPOSIT',
        fromAddress: body.fromAddress ?? outsideAddress(),
        toAddress: wallet.address,
        clientReference: null,
        transactionGroupId: null,
        counterpartTransactionId: null,
        isSourceLeg: 1,
        feeAsset: null,
        estimatedFeeAtomic: null,
        reservedFeeAtomic: null,
        actualFeeAtomic: null,
        feeLimitAtomic: null,
        forcedOutcome: null,
        txHash,
        blockNumber: currentHeight(db),
        confirmations: 1,
        broadcastAt: at,
        failureCode: null,
        failureMessage: null,
        billingReference: billingReferenceFor(id),
        correlationId: request.correlationId,
        requestId: request.requestId,
        idempotencyKey: null,
        createdAtMs: request.nowMs,
        createdAt: at,
        updatedAt: at,
      });
      db.prepare(
        `INSERT INTO deposits (id, org_id, wallet_id, transaction_id, tx_hash, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'OBSERVED', ?, ?)`,
      ).run(depositId, request.orgId, wallet.id, id, txHash, at, at);
      const row = getTransaction(db, id);
      if (!row) throw new Error('deposit transaction missing after insert');
      const common = { orgId: request.orgId, correlationId: request.correlationId, occurredAt: at };
      appendEvent(db, { ...common, type: 'deposit.observed', data: depositEventData(db, row) });
      appendEvent(db, {
        ...common,
        type: 'transaction.created',
        data: transactionEventData(db, row),
      });
      return { depositId, txHash, transactionId: id };
    })
    .immediate();
}
