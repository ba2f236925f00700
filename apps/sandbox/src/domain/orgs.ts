import { z } from 'zod';
import { API_SCOPES, CO_SIGNER_SCOPE, toBase64 } from '@settlement/protocol';
import { timeOrderedId } from '@settlement/protocol/ids';
import {
  decodeKey32,
  generateSeed,
  isStrictEd25519PublicKey,
  publicKeyFromSeed,
} from '@settlement/protocol/signing';
import { HttpError } from '../errors';
import type { Db } from '../store/db';
import { prepared } from '../store/prepared';

const SANDBOX_SCOPES = [...API_SCOPES, CO_SIGNER_SCOPE] as const;

export type Org = {
  id: string;
  name: string;
  isCoSignerOnline: boolean;
  coSignerLastSeenAt: string | null;
  createdAt: string;
};

type OrgRow = {
  id: string;
  name: string;
  co_signer_online: number;
  co_signer_last_seen_at: string | null;
  created_at: string;
};

function toOrg(row: OrgRow): Org {
  return {
    id: row.id,
    name: row.name,
    isCoSignerOnline: row.co_signer_online === 1,
    coSignerLastSeenAt: row.co_signer_last_seen_at,
    createdAt: row.created_at,
  };
}

/** A new organization: Co-Signer OFFLINE, MPC not initialized, every catalog asset enabled. */
export function createOrg(db: Db, name: string, now: Date): Org {
  const row: OrgRow = {
    id: timeOrderedId(),
    name,
    co_signer_online: 0,
    co_signer_last_seen_at: null,
    created_at: now.toISOString(),
  };
  db.prepare(
    'INSERT INTO orgs (id, name, co_signer_online, co_signer_last_seen_at, created_at) VALUES (@id, @name, @co_signer_online, @co_signer_last_seen_at, @created_at)',
  ).run(row);
  return toOrg(row);
}

const orgById = prepared<[string], OrgRow>('SELECT * FROM orgs WHERE id = ?');

export function findOrg(db: Db, orgId: string): Org | null {
  const row = orgById(db).get(orgId);
  return row ? toOrg(row) : null;
}

export function requireOrg(db: Db, orgId: string): Org {
  const org = findOrg(db, orgId);
  if (!org) throw new HttpError('RESOURCE_NOT_FOUND', 'No such organization.');
  return org;
}

/** Flips the embedded Co-Signer simulator; lastSeenAt keeps the moment it was last online. */
export function setCoSignerOnline(db: Db, orgId: string, isOnline: boolean, now: Date): Org {
  const org = requireOrg(db, orgId);
  const lastSeen = org.isCoSignerOnline || isOnline ? now.toISOString() : org.coSignerLastSeenAt;
  db.prepare('UPDATE orgs SET co_signer_online = ?, co_signer_last_seen_at = ? WHERE id = ?').run(
    isOnline ? 1 : 0,
    lastSeen,
    orgId,
  );
  return requireOrg(db, orgId);
}

/** Co-Signer status as MPC status reports it: an online Co-Signer is seen now. */
export function coSignerStatus(
  org: Org,
  now: Date,
): { status: 'ONLINE' | 'OFFLINE'; lastSeenAt: string | null } {
  return org.isCoSignerOnline
    ? { status: 'ONLINE', lastSeenAt: now.toISOString() }
    : { status: 'OFFLINE', lastSeenAt: org.coSignerLastSeenAt };
}

export const CreateApiKeyRequestSchema = z.strictObject({
  scopes: z
    .array(z.enum(SANDBOX_SCOPES))
    .min(1)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'scopes must be unique'),
  publicKey: z.string().optional(),
});
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequestSchema>;

export type ApiKeyRecord = { keyId: string; orgId: string; scopes: string[]; publicKey: string };

/**
 * Registers an API key. With `publicKey` (standard Base64, 32 bytes) only that is stored;
 * without, a pair is generated and the seed returned once as `privateKey`, never stored.
 */
export function createApiKey(
  db: Db,
  orgId: string,
  request: CreateApiKeyRequest,
  now: Date,
): { keyId: string; orgId: string; scopes: string[]; privateKey?: string } {
  requireOrg(db, orgId);
  let publicKey: Uint8Array;
  let privateKey: string | undefined;
  if (request.publicKey === undefined) {
    const seed = generateSeed();
    publicKey = publicKeyFromSeed(seed);
    privateKey = toBase64(seed);
  } else {
    try {
      publicKey = decodeKey32(request.publicKey, 'publicKey');
    } catch (error) {
      throw new HttpError('VALIDATION_ERROR', error instanceof Error ? error.message : 'bad key');
    }
    if (!isStrictEd25519PublicKey(publicKey)) {
      throw new HttpError(
        'VALIDATION_ERROR',
        'publicKey is not a canonical Ed25519 public key of full order.',
      );
    }
  }
  const keyId = `key_${timeOrderedId()}`;
  db.prepare(
    'INSERT INTO api_keys (id, org_id, public_key, scopes, created_at) VALUES (?, ?, ?, ?, ?)',
  ).run(keyId, orgId, toBase64(publicKey), JSON.stringify(request.scopes), now.toISOString());
  const result = { keyId, orgId, scopes: [...request.scopes] };
  return privateKey === undefined ? result : { ...result, privateKey };
}

const ScopesSchema = z.array(z.string());

const apiKeyById = prepared<
  [string],
  { id: string; org_id: string; public_key: string; scopes: string }
>('SELECT id, org_id, public_key, scopes FROM api_keys WHERE id = ?');

export function findApiKey(db: Db, keyId: string): ApiKeyRecord | null {
  const row = apiKeyById(db).get(keyId);
  if (!row) return null;
  return {
    keyId: row.id,
    orgId: row.org_id,
    publicKey: row.public_key,
    scopes: ScopesSchema.parse(JSON.parse(row.scopes)),
  };
}
