import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';

/** TRON addresses: createBase58check of 21 bytes, 0x41 prefix then the 20-byte account id. */
const tronBase58 = createBase58check(sha256);
export const TRON_ADDRESS_PREFIX = 0x41;
const PAYLOAD_BYTES = 21;

export function isTronAddress(address: string): boolean {
  if (typeof address !== 'string' || address.length !== 34 || !address.startsWith('T')) {
    return false;
  }
  try {
    const payload = tronBase58.decode(address);
    return payload.length === PAYLOAD_BYTES && payload[0] === TRON_ADDRESS_PREFIX;
  } catch {
    return false;
  }
}

/** Explains why an address is invalid, for forms; null when it is valid. */
export function tronAddressProblem(address: string): string | null {
  if (address.length === 0) return 'Enter a TRON address.';
  if (!address.startsWith('T')) return 'TRON addresses start with T.';
  if (address.length !== 34)
    return `TRON addresses have 34 characters (this has ${address.length}).`;
  if (/[^1-9A-HJ-NP-Za-km-z]/.test(address)) return 'Contains a character base58 does not use.';
  return isTronAddress(address) ? null : 'The checksum does not match: check for a typo.';
}

/** The address of an uncompressed secp256k1 public key (65 bytes, 0x04 prefix). */
export function tronAddressFromPublicKey(uncompressedPublicKey: Uint8Array): string {
  if (uncompressedPublicKey.length !== 65 || uncompressedPublicKey[0] !== 0x04) {
    throw new Error('expected a 65-byte uncompressed secp256k1 public key');
  }
  const hash = keccak_256(uncompressedPublicKey.subarray(1));
  const payload = new Uint8Array(PAYLOAD_BYTES);
  payload[0] = TRON_ADDRESS_PREFIX;
  payload.set(hash.subarray(hash.length - 20), 1);
  return tronBase58.encode(payload);
}
