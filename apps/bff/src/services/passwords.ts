import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { NEW_PASSWORD_MIN_LENGTH } from '@settlement/protocol';

const PARAMS = { N: 16_384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { ...options, maxmem: 64 * 1024 * 1024 },
      (error, key) => {
        if (error) reject(error);
        else resolve(key);
      },
    );
  });
}

/** `scrypt$N$r$p$salt$hash` with a random 16-byte salt per password. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return [
    'scrypt',
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString('base64'),
    key.toString('base64'),
  ].join('$');
}

/** Constant-time comparison; a malformed stored hash simply does not verify. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  if (expected.length !== KEY_LENGTH) return false;
  const key = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(key, expected);
}

/** A random password of 24 base64url characters (144 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/** Verified against when the username is unknown, so both failures cost the same. */
export const DUMMY_HASH = `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(KEY_LENGTH).toString('base64')}`;

/** zxcvbn score 0-4; 3 is "safely unguessable: moderate protection from offline attacks". */
const MIN_SCORE = 3;
let checker: ZxcvbnFactory | null = null;

/**
 * Why a new password is refused, or null when it is acceptable: at least 12 characters and
 * not guessable (common passwords, keyboard walks, the username and similar context words).
 */
export function passwordWeakness(password: string, context: readonly string[]): string | null {
  if (password.length < NEW_PASSWORD_MIN_LENGTH) {
    return `Use at least ${NEW_PASSWORD_MIN_LENGTH} characters.`;
  }
  // Built on first use: the dictionaries are large and most processes never need them.
  checker ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  const result = checker.check(password.slice(0, 256), [...context, 'settlement', 'console']);
  if (result.score >= MIN_SCORE) return null;
  return 'This password is too easy to guess. Use a longer passphrase of unrelated words.';
}
