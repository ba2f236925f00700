import { z } from 'zod';
import { timeOrderedId } from '@settlement/protocol/ids';
import { appendEvent } from '../events/outbox';
import { HttpError } from '../errors';
import { registeredVerifyingKey, verifyEd25519 } from '../http/ed25519';
import type { Db } from '../store/db';
import { prepared } from '../store/prepared';
import { findApiKey } from './orgs';
import { getTransaction, updateTransaction, type TransactionRow } from './transactions-store';
import { transactionEventData } from './transactions-view';

/**
 * The Co-Signer side of signing (sandbox payloads; the interface leaves them open):
 *
 * POST /api/v1/co-signer/intents/{intentId}/claim  body `{"coSignerId": "..."}`
 *   -> 200 {intentId, sessionId, transactionId, chain, asset, amountAtomic, fromAddress,
 *           toAddress, digest, status: "CLAIMED", claimedAt}
 * POST /api/v1/co-signer/sessions/{sessionId}/messages
 *   body `{"type": "SIGNATURE_SHARE", "digest": "<hex>", "signature": "<base64>"}` where the
 *   signature is the calling key's Ed25519 signature over the digest text
 *   -> 200 {sessionId, intentId, transactionId, status: "COMPLETE"}
 *
 * The signature is verified and dropped: it is never stored, logged, returned or emitted.
 */

export const ClaimRequestSchema = z.strictObject({ coSignerId: z.string().min(1).max(128) });
export const SessionMessageSchema = z.strictObject({
  type: z.literal('SIGNATURE_SHARE'),
  digest: z.string().regex(/^[0-9a-f]{64}$/, 'must be lowercase hex SHA-256'),
  signature: z.string().min(1).max(200),
});

type IntentRow = {
  id: string;
  orgId: string;
  transactionId: string;
  status: 'PENDING' | 'CLAIMED' | 'SIGNED' | 'CANCELLED';
  digest: string;
  sessionId: string | null;
  claimedAt: string | null;
};

const INTENT_SELECT = `SELECT id, org_id AS orgId, transaction_id AS transactionId, status, digest,
  session_id AS sessionId, claimed_at AS claimedAt FROM signing_intents`;

const intentById = prepared<[string, string], IntentRow>(
  `${INTENT_SELECT} WHERE id = ? AND org_id = ?`,
);
const intentBySession = prepared<[string, string], IntentRow>(
  `${INTENT_SELECT} WHERE session_id = ? AND org_id = ?`,
);
const markClaimed = prepared<[string, string, string, string]>(
  `UPDATE signing_intents SET status = 'CLAIMED', session_id = ?, claimed_by_key_id = ?,
     claimed_at = ? WHERE id = ?`,
);
const markSigned = prepared<[string, string]>(
  "UPDATE signing_intents SET status = 'SIGNED', signed_at = ? WHERE id = ?",
);
const openIntentsOf = prepared<
  [string],
  { id: string; status: string; sessionId: string | null; digest: string }
>(
  `SELECT id, status, session_id AS sessionId, digest FROM signing_intents
    WHERE org_id = ? AND status IN ('PENDING', 'CLAIMED')
    ORDER BY created_at`,
);

function pendingTransactionOf(db: Db, intent: IntentRow): TransactionRow {
  const row = getTransaction(db, intent.transactionId);
  if (row?.status !== 'PENDING' || intent.status === 'CANCELLED') {
    throw new HttpError(
      'CO_SIGNER_CLAIM_CONFLICT',
      'The transaction of this intent is no longer waiting for a signature.',
    );
  }
  return row;
}

function emitUpdated(db: Db, row: TransactionRow, at: string): void {
  appendEvent(db, {
    orgId: row.orgId,
    type: 'transaction.updated',
    correlationId: row.correlationId,
    occurredAt: at,
    data: transactionEventData(db, row),
  });
}

export type SigningRequest = { orgId: string; keyId: string; nowMs: number };

/** Claims a PENDING intent: a signing session starts and the transaction is SIGNING. */
export function claimIntent(db: Db, request: SigningRequest, intentId: string) {
  const intent = intentById(db).get(intentId, request.orgId);
  if (!intent) throw new HttpError('RESOURCE_NOT_FOUND', 'No such signing intent.');
  if (intent.status !== 'PENDING') {
    throw new HttpError('CO_SIGNER_CLAIM_CONFLICT', `The intent is already ${intent.status}.`);
  }
  const row = pendingTransactionOf(db, intent);
  const at = new Date(request.nowMs).toISOString();
  const sessionId = `session_${timeOrderedId()}`;
  markClaimed(db).run(sessionId, request.keyId, at, intent.id);
  updateTransaction(db, row.id, { stage: 'SIGNING', updatedAt: at });
  // The row was read in this transaction: with the patch applied it is what is now stored.
  emitUpdated(db, { ...row, stage: 'SIGNING', updatedAt: at }, at);
  return {
    intentId: intent.id,
    sessionId,
    transactionId: row.id,
    chain: row.chain,
    asset: row.asset,
    amountAtomic: row.amountAtomic,
    fromAddress: row.fromAddress,
    toAddress: row.toAddress,
    digest: intent.digest,
    status: 'CLAIMED' as const,
    claimedAt: at,
  };
}

/** Completes a session with the Co-Signer's signature share: the transaction is SIGNED. */
export function postSessionMessage(
  db: Db,
  request: SigningRequest,
  sessionId: string,
  message: z.infer<typeof SessionMessageSchema>,
) {
  const intent = intentBySession(db).get(sessionId, request.orgId);
  if (!intent) throw new HttpError('RESOURCE_NOT_FOUND', 'No such signing session.');
  if (intent.status !== 'CLAIMED') {
    throw new HttpError('CO_SIGNER_CLAIM_CONFLICT', `The session is already ${intent.status}.`);
  }
  const row = pendingTransactionOf(db, intent);
  if (message.digest !== intent.digest) {
    throw new HttpError('VALIDATION_ERROR', 'digest does not match the signing intent.', [
      { field: 'digest', issue: 'does not match the intent' },
    ]);
  }
  const key = findApiKey(db, request.keyId);
  // As the request signatures (http/ed25519.ts): strict verification of a key checked canonical
  // and not small-order at registration, parsed once per key.
  if (
    !key ||
    !verifyEd25519(registeredVerifyingKey(key.publicKey), message.digest, message.signature)
  ) {
    throw new HttpError('VALIDATION_ERROR', 'signature does not verify for this key.', [
      { field: 'signature', issue: 'does not verify' },
    ]);
  }
  const at = new Date(request.nowMs).toISOString();
  markSigned(db).run(at, intent.id);
  updateTransaction(db, row.id, { stage: 'SIGNED', updatedAt: at });
  emitUpdated(db, { ...row, stage: 'SIGNED', updatedAt: at }, at);
  return {
    sessionId,
    intentId: intent.id,
    transactionId: row.id,
    status: 'COMPLETE' as const,
  };
}

/**
 * Intents waiting for this org's Co-Signer: PENDING ones, and CLAIMED ones whose signature never
 * arrived (e.g. a restart between claim and message; the session accepts any co-signer key of
 * the org, verified against the calling key).
 */
export function openIntents(
  db: Db,
  orgId: string,
): { id: string; status: string; sessionId: string | null; digest: string }[] {
  return openIntentsOf(db).all(orgId);
}
