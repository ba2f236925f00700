import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { TRANSPORTS } from '@settlement/protocol';
import type { Db } from '../store/db';

export type Transport = (typeof TRANSPORTS)[number];

export type StoredPasskey = {
  id: string;
  operatorId: number;
  credentialId: string;
  publicKey: Uint8Array<ArrayBuffer>;
  counter: number;
  transports: Transport[];
  name: string;
  isBackedUp: boolean;
  createdAt: number;
  lastUsedAt: number | null;
};

const PasskeyRowSchema = z.object({
  id: z.string(),
  operator_id: z.number().int(),
  credential_id: z.string(),
  public_key: z.instanceof(Buffer),
  counter: z.number().int(),
  transports: z.string(),
  name: z.string(),
  is_backed_up: z.number().int(),
  created_at: z.number().int(),
  last_used_at: z.number().int().nullable(),
});
const TransportsSchema = z.array(z.enum(TRANSPORTS));

function toPasskey(row: unknown): StoredPasskey {
  const r = PasskeyRowSchema.parse(row);
  return {
    id: r.id,
    operatorId: r.operator_id,
    credentialId: r.credential_id,
    publicKey: new Uint8Array(r.public_key),
    counter: r.counter,
    transports: TransportsSchema.parse(JSON.parse(r.transports)),
    name: r.name,
    isBackedUp: r.is_backed_up === 1,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
  };
}

export type ChallengePurpose = 'register' | 'login' | 'step-up';

/** A challenge is valid this long after its options were issued. */
export const CHALLENGE_TTL_MS = 2 * 60_000;

export type PasskeyStore = ReturnType<typeof createPasskeyStore>;

/** Passkeys of operators and the one outstanding challenge per (session, purpose). */
export function createPasskeyStore(db: Db, now: () => number) {
  const insert = db.prepare(
    `INSERT INTO passkeys (id, operator_id, credential_id, public_key, counter, transports, name,
       is_backed_up, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
  );
  const ofOperator = db.prepare(
    'SELECT * FROM passkeys WHERE operator_id = ? ORDER BY created_at, id',
  );
  const byCredential = db.prepare('SELECT * FROM passkeys WHERE credential_id = ?');
  const used = db.prepare(
    'UPDATE passkeys SET counter = ?, last_used_at = ?, is_backed_up = ? WHERE id = ?',
  );
  const remove = db.prepare('DELETE FROM passkeys WHERE id = ? AND operator_id = ?');
  const putChallenge = db.prepare(
    `INSERT INTO webauthn_challenges (session_hash, purpose, challenge, expires_at)
     VALUES (?, ?, ?, ?)
     ON CONFLICT (session_hash, purpose) DO UPDATE SET challenge = excluded.challenge,
       expires_at = excluded.expires_at`,
  );
  const takeChallenge = db.prepare<[string, string], { challenge: string; expires_at: number }>(
    `DELETE FROM webauthn_challenges WHERE session_hash = ? AND purpose = ?
     RETURNING challenge, expires_at`,
  );

  return {
    add(input: {
      operatorId: number;
      credentialId: string;
      publicKey: Uint8Array;
      counter: number;
      transports: readonly Transport[];
      name: string;
      isBackedUp: boolean;
    }): StoredPasskey {
      const id = `pk_${randomBytes(12).toString('base64url')}`;
      insert.run(
        id,
        input.operatorId,
        input.credentialId,
        Buffer.from(input.publicKey),
        input.counter,
        JSON.stringify(input.transports),
        input.name,
        input.isBackedUp ? 1 : 0,
        now(),
      );
      return toPasskey(byCredential.get(input.credentialId));
    },
    ofOperator: (operatorId: number): StoredPasskey[] => ofOperator.all(operatorId).map(toPasskey),
    byCredentialId(credentialId: string): StoredPasskey | null {
      const row = byCredential.get(credentialId);
      return row === undefined ? null : toPasskey(row);
    },
    recordUse(id: string, counter: number, isBackedUp: boolean): void {
      used.run(counter, now(), isBackedUp ? 1 : 0, id);
    },
    remove: (id: string, operatorId: number): boolean => remove.run(id, operatorId).changes > 0,
    /** Replaces any outstanding challenge of this purpose for the session. */
    issueChallenge(sessionHash: string, purpose: ChallengePurpose, challenge: string): void {
      putChallenge.run(sessionHash, purpose, challenge, now() + CHALLENGE_TTL_MS);
    },
    /**
     * Single use: the challenge is deleted whether or not the answer verifies, so a second
     * answer to it (a replay) finds none. Null when none was issued or it expired.
     */
    takeChallenge(sessionHash: string, purpose: ChallengePurpose): string | null {
      const row = takeChallenge.get(sessionHash, purpose);
      if (!row || row.expires_at < now()) return null;
      return row.challenge;
    },
  };
}
