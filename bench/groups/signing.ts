import {
  createHash,
  createPrivateKey,
  randomBytes,
  sign as nodeSign,
  verify as nodeVerify,
} from 'node:crypto';
import {
  createNobleSigner,
  generateNonce,
  publicKeyFromSeed,
  restCanonicalString,
  sha256Hex,
  verifyMessage,
} from '@settlement/protocol/signing';
import { verifyEd25519, verifyingKey } from '@settlement/sandbox/ed25519';
import { createSodiumSigner } from '@settlement/bff/signer';
import { median, type GroupRecorder } from '../lib/report';
import type { BenchContext } from '../run';

/**
 * Group 1, in process: the protocol's signing path (@noble/ed25519, @noble/hashes) against
 * node:crypto on the same canonical strings and bodies (a private key object made once), the
 * BFF's signer (libsodium) against that node:crypto signer, the one it replaced, and the
 * sandbox's verifier (libsodium, node:crypto on a refusal; its key parsed once) against
 * node:crypto's verify, the one it replaced.
 */

/** PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows it. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

function nodeCryptoSign(seed: Uint8Array): (message: string) => string {
  const key = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  return (message) => nodeSign(null, Buffer.from(message, 'utf8'), key).toString('base64');
}

/** Runs `op` repeatedly for about `ms` and returns operations per second. */
function opsPerSecond(ms: number, op: (i: number) => void): number {
  const started = performance.now();
  let count = 0;
  let elapsed = 0;
  do {
    for (let j = 0; j < 16; j += 1) op(count + j);
    count += 16;
    elapsed = performance.now() - started;
  } while (elapsed < ms);
  return (count * 1000) / elapsed;
}

/** Alternates the measured pair over `rounds` so drift hits both alike; medians per side. */
function pair(
  rounds: number,
  ms: number,
  a: (i: number) => void,
  b: (i: number) => void,
): { a: number; b: number } {
  opsPerSecond(Math.min(ms, 100), a);
  opsPerSecond(Math.min(ms, 100), b);
  const as: number[] = [];
  const bs: number[] = [];
  for (let r = 0; r < rounds; r += 1) {
    as.push(opsPerSecond(ms, a));
    bs.push(opsPerSecond(ms, b));
  }
  return { a: median(as) ?? 0, b: median(bs) ?? 0 };
}

export function runSigning(ctx: BenchContext, rec: GroupRecorder): Promise<void> {
  const ms = ctx.isQuick ? 120 : 1_000;
  const rounds = 3;
  const seed = new Uint8Array(randomBytes(32));
  const keyId = 'bench-key';
  const noble = createNobleSigner(keyId, seed);
  const native = nodeCryptoSign(seed);
  const sodium = createSodiumSigner(keyId, seed);
  const publicKey = publicKeyFromSeed(seed);
  const sandboxKey = verifyingKey(publicKey);

  const messages = Array.from({ length: 256 }, (_, i) =>
    restCanonicalString({
      method: i % 4 === 0 ? 'POST' : 'GET',
      target: `/api/v1/transactions?limit=50&walletId=wal_${i.toString(16).padStart(8, '0')}`,
      bodyHash: i % 4 === 0 ? sha256Hex(`{"n":${i}}`) : null,
      timestamp: String(1_780_000_000 + i),
      nonce: generateNonce(),
      keyId,
    }),
  );
  const at = (i: number): string => messages[i % messages.length] ?? '';

  // Byte equality first: both sides must produce the same signature for every message.
  const signatures = messages.map((m) => noble.sign(m));
  const mismatches = messages.filter(
    (m, i) => native(m) !== signatures[i] || sodium.sign(m) !== signatures[i],
  ).length;
  const sigAt = (i: number): string => signatures[i % signatures.length] ?? '';
  const allVerify = messages.every(
    (m, i) => verifyMessage(publicKey, m, sigAt(i)) && verifyEd25519(sandboxKey, m, sigAt(i)),
  );

  const sign = pair(
    rounds,
    ms,
    (i) => noble.sign(at(i)),
    (i) => native(at(i)),
  );
  rec.add({
    metric: 'Ed25519 sign, protocol (noble)',
    value: sign.a,
    unit: 'ops/s',
    reference: { name: 'node:crypto', value: sign.b },
  });
  const bffSign = pair(
    rounds,
    ms,
    (i) => sodium.sign(at(i)),
    (i) => native(at(i)),
  );
  rec.add({
    metric: 'Ed25519 sign, BFF signer (libsodium)',
    value: bffSign.a,
    unit: 'ops/s',
    reference: { name: 'node:crypto', value: bffSign.b },
  });
  const nodeCryptoVerify = (i: number) =>
    nodeVerify(
      null,
      Buffer.from(at(i), 'utf8'),
      sandboxKey.object,
      Buffer.from(sigAt(i), 'base64'),
    );
  const verify = pair(
    rounds,
    ms,
    (i) => verifyMessage(publicKey, at(i), sigAt(i)),
    nodeCryptoVerify,
  );
  rec.add({
    metric: 'Ed25519 verify (strict), protocol (noble)',
    value: verify.a,
    unit: 'ops/s',
    reference: { name: 'node:crypto', value: verify.b },
  });
  const sandboxVerify = pair(
    rounds,
    ms,
    (i) => verifyEd25519(sandboxKey, at(i), sigAt(i)),
    nodeCryptoVerify,
  );
  rec.add({
    metric: 'Ed25519 verify (strict), sandbox verifier (libsodium first)',
    value: sandboxVerify.a,
    unit: 'ops/s',
    reference: { name: 'node:crypto', value: sandboxVerify.b },
  });
  rec.add({
    metric: 'signatures byte-identical (noble, node:crypto, libsodium)',
    value: messages.length - mismatches,
    unit: `of ${messages.length}`,
    target: 'all identical, all verify',
    isMet: mismatches === 0 && allVerify,
  });

  for (const size of [1024, 64 * 1024]) {
    const bodies = Array.from({ length: 8 }, () => new Uint8Array(randomBytes(size)));
    const body = (i: number) => bodies[i % bodies.length] ?? new Uint8Array();
    const sameHash = bodies.every(
      (b) => sha256Hex(b) === createHash('sha256').update(b).digest('hex'),
    );
    const hash = pair(
      rounds,
      ms,
      (i) => sha256Hex(body(i)),
      (i) => createHash('sha256').update(body(i)).digest('hex'),
    );
    const mb = (opsPerS: number) => (opsPerS * size) / (1024 * 1024);
    rec.add({
      metric: `SHA-256 ${size / 1024} KB body, protocol (noble)`,
      value: mb(hash.a),
      unit: 'MB/s',
      reference: { name: 'node:crypto', value: mb(hash.b) },
      ...(sameHash ? {} : { note: 'HASHES DIFFER' }),
    });
  }
  rec.note(
    'ratio < 1 means the first path is slower; the BFF signs with libsodium, the sandbox verifies with libsodium (asking node:crypto again only on a refusal), and the protocol path stays the isomorphic reference both are cross-checked against.',
  );
  return Promise.resolve();
}
