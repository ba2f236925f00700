import { z } from 'zod';
import { METADATA_MAX_BYTES, type Account, type AccountDetail } from '@settlement/protocol';
import { timeOrderedId } from '@settlement/protocol/ids';
import { HttpError } from '../errors';
import { appendEvent } from '../events/outbox';
import type { Db } from '../store/db';
import { prepared } from '../store/prepared';
import { accountBalances } from './ledger-balances';

export type AccountRow = {
  /** Insertion order: the keyset tiebreak among rows created in the same millisecond. */
  seq?: number;
  id: string;
  org_id: string;
  name: string;
  external_id: string | null;
  metadata: string | null;
  created_at: string;
  updated_at: string;
};

const MetadataSchema = z.record(z.string(), z.unknown());

export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    externalId: row.external_id,
    metadata: row.metadata === null ? null : MetadataSchema.parse(JSON.parse(row.metadata)),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type CreateAccountInput = {
  name: string;
  externalId?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
};

export type RequestTrace = {
  requestId: string;
  correlationId: string;
  idempotencyKey: string | null;
  now: Date;
};

/**
 * Creates a ledger account and its account.created event in one transaction.
 * externalId is unique per org (409); metadata is at most 16 KiB as UTF-8 JSON (422).
 */
export function createAccount(
  db: Db,
  orgId: string,
  input: CreateAccountInput,
  trace: RequestTrace,
): Account {
  const metadata = input.metadata === undefined ? null : JSON.stringify(input.metadata);
  if (metadata !== null && Buffer.byteLength(metadata, 'utf8') > METADATA_MAX_BYTES) {
    throw new HttpError('ACCOUNT_METADATA_TOO_LARGE');
  }
  return db
    .transaction(() => {
      const externalId = input.externalId ?? null;
      if (externalId !== null) {
        const taken = db
          .prepare<[string, string], { id: string }>(
            'SELECT id FROM accounts WHERE org_id = ? AND external_id = ?',
          )
          .get(orgId, externalId);
        if (taken) throw new HttpError('ACCOUNT_EXTERNAL_ID_CONFLICT');
      }
      const at = trace.now.toISOString();
      const row: AccountRow = {
        id: timeOrderedId(),
        org_id: orgId,
        name: input.name,
        external_id: externalId,
        metadata,
        created_at: at,
        updated_at: at,
      };
      db.prepare(
        `INSERT INTO accounts (id, org_id, name, name_folded, external_id, metadata, correlation_id, created_at, updated_at)
       VALUES (@id, @org_id, @name, @name_folded, @external_id, @metadata, @correlation_id, @created_at, @updated_at)`,
      ).run({ ...row, name_folded: input.name.toLowerCase(), correlation_id: trace.correlationId });
      appendEvent(db, {
        orgId,
        type: 'account.created',
        correlationId: trace.correlationId,
        occurredAt: at,
        data: {
          accountId: row.id,
          orgId,
          name: row.name,
          externalId,
          createdAt: at,
          requestId: trace.requestId,
          idempotencyKey: trace.idempotencyKey,
        },
      });
      return toAccount(row);
    })
    .immediate();
}

const accountById = prepared<[string, string], AccountRow>(
  'SELECT * FROM accounts WHERE id = ? AND org_id = ?',
);

export function findAccountRow(db: Db, orgId: string, accountId: string): AccountRow | null {
  return accountById(db).get(accountId, orgId) ?? null;
}

const namesByIds = prepared<[string, string], { id: string; name: string }>(
  // `+org_id`: look the ids up by key, never walk the org's accounts (thousands in the bench).
  'SELECT id, name FROM accounts WHERE +org_id = ? AND id IN (SELECT value FROM json_each(?))',
);

/** Names of several accounts of the org in one query (ids of other orgs are left out). */
export function accountNamesOf(
  db: Db,
  orgId: string,
  accountIds: readonly string[],
): Map<string, string> {
  return new Map(
    namesByIds(db)
      .all(orgId, JSON.stringify(accountIds))
      .map((row) => [row.id, row.name]),
  );
}

/** The account of the org, else 404 RESOURCE_NOT_FOUND (another org's account included). */
export function requireAccount(db: Db, orgId: string, accountId: string): AccountRow {
  const row = findAccountRow(db, orgId, accountId);
  if (!row) throw new HttpError('RESOURCE_NOT_FOUND', 'No such account in this organization.');
  return row;
}

/** Detail: the account plus walletCount and balances summed over its wallets. */
export function accountDetail(db: Db, orgId: string, accountId: string): AccountDetail {
  const row = requireAccount(db, orgId, accountId);
  const walletCount =
    db
      .prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM wallets WHERE account_id = ?')
      .get(accountId)?.n ?? 0;
  return { ...toAccount(row), walletCount, balances: accountBalances(db, accountId) };
}

export type AccountFilters = { search?: string; externalId?: string };

/** Newest first; keyset on (created_at, rowid) so concurrent inserts never shift a page. */
export function queryAccounts(
  db: Db,
  orgId: string,
  filters: AccountFilters,
  after: { createdAt: string; seq: number } | null,
  limit: number,
): AccountRow[] {
  const where = ['org_id = @orgId'];
  const params: Record<string, string | number> = { orgId, limit };
  if (filters.search !== undefined) {
    where.push('instr(name_folded, @search) > 0');
    params.search = filters.search.toLowerCase();
  }
  if (filters.externalId !== undefined) {
    where.push('external_id = @externalId');
    params.externalId = filters.externalId;
  }
  if (after) {
    where.push('(created_at, rowid) < (@afterCreatedAt, @afterSeq)');
    params.afterCreatedAt = after.createdAt;
    params.afterSeq = after.seq;
  }
  return db
    .prepare<[Record<string, string | number>], AccountRow>(
      `SELECT rowid AS seq, * FROM accounts WHERE ${where.join(' AND ')} ORDER BY created_at DESC, rowid DESC LIMIT @limit`,
    )
    .all(params);
}
