import { generateKeyPairSync } from 'node:crypto';
import {
  ChainSchema,
  tronAddressFromPublicKey,
  WalletStatusSchema,
  type Wallet,
} from '@settlement/protocol';
import { timeOrderedId } from '@settlement/protocol/ids';
import { HttpError } from '../errors';
import { appendEvent } from '../events/outbox';
import type { Db } from '../store/db';
import { prepared } from '../store/prepared';
import type { RequestTrace } from './accounts';
import { requireAccount } from './accounts';
import { isChainEnabled, isKnownChain } from './assets';
import { getFaults } from './faults';
import { signingReadiness } from './mpc';

export type WalletRow = {
  /** Insertion order: the keyset tiebreak among rows with the same timestamp. */
  seq?: number;
  id: string;
  org_id: string;
  account_id: string;
  account_name: string;
  chain: string;
  address: string;
  status: string;
  created_at: string;
  updated_at: string;
};

const WALLET_SELECT = `SELECT w.rowid AS seq, w.id, w.org_id, w.account_id, a.name AS account_name, w.chain, w.address,
  w.status, w.created_at, w.updated_at FROM wallets w JOIN accounts a ON a.id = w.account_id`;

export function toWallet(row: WalletRow): Wallet {
  return {
    id: row.id,
    chain: ChainSchema.parse(row.chain),
    accountId: row.account_id,
    accountName: row.account_name,
    address: row.address,
    status: WalletStatusSchema.parse(row.status),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * A fresh secp256k1 key and its TRON address. Only the public key is kept: in the simulated
 * deployment the MPC key shares hold the signing side.
 */
function newTronAddress(): { address: string; publicKeyHex: string } {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
  const jwk = publicKey.export({ format: 'jwk' });
  if (typeof jwk.x !== 'string' || typeof jwk.y !== 'string') {
    throw new Error('secp256k1 key export without coordinates');
  }
  const point = Buffer.concat([
    Buffer.from([0x04]),
    Buffer.from(jwk.x, 'base64url'),
    Buffer.from(jwk.y, 'base64url'),
  ]);
  return { address: tronAddressFromPublicKey(point), publicKeyHex: point.toString('hex') };
}

/**
 * Creates an ACTIVE wallet with a real TRON address and its wallet.created event. Call it
 * inside the idempotent transaction. Checks, in order: chain known and enabled (422
 * UNSUPPORTED_CHAIN), account in the org (404), signing ready: MPC key ACTIVE and Co-Signer
 * online (503 UPSTREAM_UNAVAILABLE, retryable), plan limit (403 PLAN_LIMIT_REACHED).
 */
export function createWallet(
  db: Db,
  orgId: string,
  input: { chain: string; accountId: string },
  trace: RequestTrace,
): Wallet {
  if (!isKnownChain(input.chain) || !isChainEnabled(db, orgId, input.chain)) {
    throw new HttpError('UNSUPPORTED_CHAIN', `The chain ${input.chain} is not supported here.`);
  }
  const account = requireAccount(db, orgId, input.accountId);
  const readiness = signingReadiness(db, orgId, input.chain);
  if (!readiness.isReady) {
    throw new HttpError(
      'UPSTREAM_UNAVAILABLE',
      `Wallets cannot be created on ${input.chain} yet: ${readiness.reason ?? 'not ready'}`,
    );
  }
  const limit = getFaults(db, orgId).walletPlanLimit;
  if (limit !== null) {
    const count =
      db
        .prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM wallets WHERE org_id = ?')
        .get(orgId)?.n ?? 0;
    if (count >= limit) {
      throw new HttpError(
        'PLAN_LIMIT_REACHED',
        `The organization's plan allows ${limit} wallet(s).`,
      );
    }
  }
  const { address, publicKeyHex } = newTronAddress();
  const at = trace.now.toISOString();
  const row: WalletRow = {
    id: timeOrderedId(),
    org_id: orgId,
    account_id: account.id,
    account_name: account.name,
    chain: input.chain,
    address,
    status: 'ACTIVE',
    created_at: at,
    updated_at: at,
  };
  db.prepare(
    `INSERT INTO wallets (id, org_id, account_id, chain, address, public_key, status, correlation_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    row.id,
    orgId,
    row.account_id,
    row.chain,
    address,
    publicKeyHex,
    row.status,
    trace.correlationId,
    at,
    at,
  );
  appendEvent(db, {
    orgId,
    type: 'wallet.created',
    correlationId: trace.correlationId,
    occurredAt: at,
    data: {
      walletId: row.id,
      accountId: row.account_id,
      orgId,
      chain: row.chain,
      address,
      status: row.status,
      createdAt: at,
      requestId: trace.requestId,
      idempotencyKey: trace.idempotencyKey,
    },
  });
  return toWallet(row);
}

const walletById = prepared<[string, string], WalletRow>(
  `${WALLET_SELECT} WHERE w.id = ? AND w.org_id = ?`,
);

function findWallet(db: Db, orgId: string, walletId: string): WalletRow | null {
  return walletById(db).get(walletId, orgId) ?? null;
}

export function requireWallet(db: Db, orgId: string, walletId: string): WalletRow {
  const row = findWallet(db, orgId, walletId);
  if (!row) throw new HttpError('RESOURCE_NOT_FOUND', 'No such wallet in this organization.');
  return row;
}

export type WalletFilters = {
  status?: string;
  chain?: string;
  addressContains?: string;
  createdFrom?: string;
  createdTo?: string;
  accountId?: string;
  sortBy: 'createdAt' | 'updatedAt';
  sortOrder: 'asc' | 'desc';
};

/** Keyset page over (sort column, id) in the requested order. */
export function queryWallets(
  db: Db,
  orgId: string,
  filters: WalletFilters,
  after: { sortValue: string; seq: number } | null,
  limit: number,
): WalletRow[] {
  const column = filters.sortBy === 'updatedAt' ? 'w.updated_at' : 'w.created_at';
  const direction = filters.sortOrder === 'asc' ? 'ASC' : 'DESC';
  const where = ['w.org_id = @orgId'];
  const params: Record<string, string | number> = { orgId, limit };
  const add = (clause: string, name: string, value: string | undefined) => {
    if (value === undefined) return;
    where.push(clause);
    params[name] = value;
  };
  add('w.status = @status', 'status', filters.status);
  add('w.chain = @chain', 'chain', filters.chain);
  add('instr(w.address, @addressContains) > 0', 'addressContains', filters.addressContains);
  add('w.created_at >= @createdFrom', 'createdFrom', filters.createdFrom);
  add('w.created_at <= @createdTo', 'createdTo', filters.createdTo);
  add('w.account_id = @accountId', 'accountId', filters.accountId);
  if (after) {
    where.push(`(${column}, w.rowid) ${direction === 'ASC' ? '>' : '<'} (@afterValue, @afterSeq)`);
    params.afterValue = after.sortValue;
    params.afterSeq = after.seq;
  }
  return db
    .prepare<[Record<string, string | number>], WalletRow>(
      `${WALLET_SELECT} WHERE ${where.join(' AND ')} ORDER BY ${column} ${direction}, w.rowid ${direction} LIMIT @limit`,
    )
    .all(params);
}
