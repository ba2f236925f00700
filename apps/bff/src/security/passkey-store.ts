import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { TRANSPORTS } from '@settlement/protocol';
import type { Sql } from '../store/sql';

type Transport = (typeof TRANSPORTS)[number];

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

const ChallengeRowSchema = z.object({ challenge: z.string(), expires_at: z.number().int() });

export type PasskeyStore = {
  add(input: {
    operatorId: number;
    credentialId: string;
    publicKey: Uint8Array;
    counter: number;
    transports: readonly Transport[];
    name: string;
    isBackedUp: boolean;
  }): Promise<StoredPasskey>;
  ofOperator(operatorId: number): Promise<StoredPasskey[]>;
  byCredentialId(credentialId: string): Promise<StoredPasskey | null>;
  recordUse(id: string, counter: number, isBackedUp: boolean): Promise<void>;
  remove(id: string, operatorId: number): Promise<boolean>;
  /** Replaces any outstanding challenge of this purpose for the session. */
  issueChallenge(sessionHash: string, purpose: ChallengePurpose, challenge: string): Promise<void>;
  /**
   * Single use: the challenge is deleted whether or not the answer verifies, so a second
   * answer to it (a replay, on any replica) finds none. Null when none was issued or it expired.
   */
  takeChallenge(sessionHash: string, purpose: ChallengePurpose): Promise<string | null>;
};

const BY_CREDENTIAL = 'SELECT * FROM passkeys WHERE credential_id = ?';

/** Passkeys of operators and the one outstanding challenge per (session, purpose). */
export function createPasskeyStore(db: Sql, now: () => number): PasskeyStore {
  return {
    async add(input) {
      const id = `pk_${randomBytes(12).toString('base64url')}`;
      await db.run(
        `INSERT INTO passkeys (id, operator_id, credential_id, public_key, counter, transports,
           name, is_backed_up, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
        [
          id,
          input.operatorId,
          input.credentialId,
          input.publicKey,
          input.counter,
          JSON.stringify(input.transports),
          input.name,
          input.isBackedUp ? 1 : 0,
          now(),
        ],
      );
      return toPasskey(await db.get(BY_CREDENTIAL, [input.credentialId]));
    },
    ofOperator: async (operatorId) =>
      (
        await db.all('SELECT * FROM passkeys WHERE operator_id = ? ORDER BY created_at, id', [
          operatorId,
        ])
      ).map(toPasskey),
    async byCredentialId(credentialId) {
      const row = await db.get(BY_CREDENTIAL, [credentialId]);
      return row === undefined ? null : toPasskey(row);
    },
    async recordUse(id, counter, isBackedUp) {
      await db.run(
        'UPDATE passkeys SET counter = ?, last_used_at = ?, is_backed_up = ? WHERE id = ?',
        [counter, now(), isBackedUp ? 1 : 0, id],
      );
    },
    remove: async (id, operatorId) =>
      (await db.run('DELETE FROM passkeys WHERE id = ? AND operator_id = ?', [id, operatorId])) > 0,
    async issueChallenge(sessionHash, purpose, challenge) {
      await db.run(
        `INSERT INTO webauthn_challenges (session_hash, purpose, challenge, expires_at)
         VALUES (?, ?, ?, ?)
         ON CONFLICT (session_hash, purpose) DO UPDATE SET challenge = excluded.challenge,
           expires_at = excluded.expires_at`,
        [sessionHash, purpose, challenge, now() + CHALLENGE_TTL_MS],
      );
    },
    async takeChallenge(sessionHash, purpose) {
      const row = await db.get(
        `DELETE FROM webauthn_challenges WHERE session_hash = ? AND purpose = ?
         RETURNING challenge, expires_at`,
        [sessionHash, purpose],
      );
      if (row === undefined) return null;
      const taken = ChallengeRowSchema.parse(row);
      return taken.expires_at < now() ? null : taken.challenge;
    },
  };
}
