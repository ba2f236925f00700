import { utf8ToBytes } from '@noble/hashes/utils.js';
import { base64 } from '@scure/base';

/** UTF-8 bytes of a string: the one way strings become the bytes we hash, sign and send. */
export function utf8Bytes(text: string): Uint8Array {
  return utf8ToBytes(text);
}

/** Standard, padded Base64 (RFC 4648 §4), the form the interface uses for keys and signatures. */
export function toBase64(bytes: Uint8Array): string {
  return base64.encode(bytes);
}

/** Decodes standard padded Base64; throws on any other alphabet, padding or length. */
export function fromBase64(text: string): Uint8Array {
  return base64.decode(text);
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}
