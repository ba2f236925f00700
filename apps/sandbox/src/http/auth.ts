import type { IncomingHttpHeaders } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import {
  CanonicalFieldError,
  restCanonicalString,
  wsCanonicalString,
} from '@settlement/protocol/signing';
import { HttpError } from '../errors';
import type { Db } from '../store/db';
import { findApiKey } from '../domain/orgs';
import { groupCommitOf } from '../store/group-commit';
import { rawBody, rawBodyHash } from './body';
import {
  SIGNATURE_PATTERN,
  registeredVerifyingKey,
  verifyEd25519,
  type VerifyingKey,
} from './ed25519';

const TIMESTAMP_SKEW_SECONDS = 300;
const NONCE_RETENTION_SECONDS = 600;
const NONCE_PATTERN = /^[\x21-\x7e]{1,128}$/;
const TIMESTAMP_PATTERN = /^[0-9]{1,12}$/;
const BODY_HASH_PATTERN = /^[0-9a-f]{64}$/;

export type Principal = { orgId: string; keyId: string; scopes: ReadonlySet<string> };

type CachedKey = Principal & { key: VerifyingKey };

const principals = new WeakMap<Request, Principal>();

/** The authenticated key of a request; only valid behind the authenticate middleware. */
export function principalOf(req: Request): Principal {
  const principal = principals.get(req);
  if (principal === undefined) throw new HttpError('UNAUTHENTICATED');
  return principal;
}

/** Route guard: 403 FORBIDDEN unless the request's key carries `scope`. */
export function requireScope(scope: string) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!principalOf(req).scopes.has(scope)) {
      throw new HttpError('FORBIDDEN', `This API key lacks the scope ${scope}.`);
    }
    next();
  };
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

function unauthenticated(message: string): HttpError {
  return new HttpError('UNAUTHENTICATED', message);
}

export type Authenticator = {
  /** Express middleware for /api/v1: verifies the six-line signature over the raw target and body. */
  rest: (req: Request, res: Response, next: NextFunction) => void;
  /** Verifies the four-line WebSocket handshake from the upgrade request's headers. */
  websocket: (headers: IncomingHttpHeaders) => Principal;
};

/**
 * Ed25519 request authentication. Public keys are parsed once per key id (strict verification,
 * see ed25519.ts, of keys already checked canonical and not small-order at registration);
 * nonces are stored durably per key for 600 s, so a restart never reopens a replay window. A
 * REST request's nonce is written into the loop turn's group commit before its handler runs
 * (it commits with the batch even when the request is refused, and the answer waits for that
 * commit); a WebSocket handshake's nonce commits on its own before the socket opens.
 */
export function createAuthenticator(db: Db, nowMs: () => number): Authenticator {
  const cache = new Map<string, CachedKey>();
  const groupCommit = groupCommitOf(db);
  const recordNonce = db.prepare<[string, string, number, number]>(
    `INSERT INTO nonces (key_id, nonce, expires_at) VALUES (?, ?, ?)
     ON CONFLICT (key_id, nonce) DO UPDATE SET expires_at = excluded.expires_at
     WHERE nonces.expires_at <= ?`,
  );

  function loadKey(keyId: string): CachedKey | null {
    const hit = cache.get(keyId);
    if (hit) return hit;
    const row = findApiKey(db, keyId);
    if (!row) return null;
    const key = registeredVerifyingKey(row.publicKey);
    const entry: CachedKey = { orgId: row.orgId, keyId, scopes: new Set(row.scopes), key };
    cache.set(keyId, entry);
    return entry;
  }

  /** Common checks; `canonical` builds the signed string once the fields are known good. */
  function check(
    headers: IncomingHttpHeaders,
    canonical: (fields: { timestamp: string; nonce: string; keyId: string }) => string,
    isBatched: boolean,
  ): Principal {
    const keyId = header(headers, 'x-api-key-id');
    const timestamp = header(headers, 'x-api-timestamp');
    const nonce = header(headers, 'x-api-nonce');
    const signature = header(headers, 'x-api-signature');
    if (!keyId || !timestamp || !nonce || !signature) {
      throw unauthenticated(
        'X-Api-Key-Id, X-Api-Timestamp, X-Api-Nonce and X-Api-Signature are required.',
      );
    }
    if (!TIMESTAMP_PATTERN.test(timestamp)) {
      throw unauthenticated('X-Api-Timestamp must be Unix time in seconds.');
    }
    const now = nowMs();
    const nowSeconds = Math.floor(now / 1000);
    if (Math.abs(nowSeconds - Number(timestamp)) > TIMESTAMP_SKEW_SECONDS) {
      throw unauthenticated(`X-Api-Timestamp is more than ${TIMESTAMP_SKEW_SECONDS} s away.`);
    }
    if (!NONCE_PATTERN.test(nonce)) {
      throw unauthenticated('X-Api-Nonce must be 1-128 visible ASCII characters.');
    }
    if (!SIGNATURE_PATTERN.test(signature)) {
      throw unauthenticated('X-Api-Signature must be a padded Base64 Ed25519 signature.');
    }
    const key = loadKey(keyId);
    if (!key) throw unauthenticated('Unknown API key.');
    let message: string;
    try {
      message = canonical({ timestamp, nonce, keyId });
    } catch (error) {
      if (error instanceof CanonicalFieldError) throw unauthenticated('A signed field is invalid.');
      throw error;
    }
    if (!verifyEd25519(key.key, message, signature))
      throw unauthenticated('The signature does not verify.');
    if (isBatched) groupCommit.join();
    const inserted = recordNonce.run(keyId, nonce, now + NONCE_RETENTION_SECONDS * 1000, now);
    if (inserted.changes === 0) throw unauthenticated('This nonce was already used.');
    return { orgId: key.orgId, keyId: key.keyId, scopes: key.scopes };
  }

  return {
    rest: (req, _res, next) => {
      const body = rawBody(req);
      const bodyHash = header(req.headers, 'x-api-body-hash');
      if (bodyHash === undefined && body.length > 0) {
        throw unauthenticated('X-Api-Body-Hash is required when a body is sent.');
      }
      if (bodyHash !== undefined) {
        if (!BODY_HASH_PATTERN.test(bodyHash)) {
          throw unauthenticated('X-Api-Body-Hash must be lowercase hex SHA-256.');
        }
        if (bodyHash !== rawBodyHash(req)) {
          throw unauthenticated('X-Api-Body-Hash does not match the body bytes.');
        }
      }
      const principal = check(
        req.headers,
        (fields) =>
          restCanonicalString({
            method: req.method,
            target: req.originalUrl,
            bodyHash: bodyHash ?? null,
            ...fields,
          }),
        true,
      );
      principals.set(req, principal);
      next();
    },
    websocket: (headers) => {
      // The upgrade answers at once, so nothing may be left uncommitted under it.
      groupCommit.flush();
      return check(headers, (fields) => wsCanonicalString(fields), false);
    },
  };
}
