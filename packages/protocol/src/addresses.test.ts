import { hexToBytes } from '@noble/hashes/utils.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { toHex } from './encoding';
import { isTronAddress, tronAddressFromPublicKey, tronAddressProblem } from './addresses';

// Real mainnet addresses: the USDT TRC-20 contract, the Nile USDT contract and two accounts.
const REAL = [
  'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
  'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
  'TN3W4H6rK2ce4vX9YnFQHwKENnHjoxb3m9',
];

describe('TRON addresses', () => {
  it.each(REAL)('accepts %s', (address) => {
    expect(isTronAddress(address)).toBe(true);
    expect(tronAddressProblem(address)).toBeNull();
  });

  it('rejects a changed character (checksum), wrong length, prefix and alphabet', () => {
    const good = REAL[0]!;
    const typo = good.slice(0, 10) + (good[10] === 'a' ? 'b' : 'a') + good.slice(11);
    expect(isTronAddress(typo)).toBe(false);
    expect(tronAddressProblem(typo)).toMatch(/checksum/);
    expect(tronAddressProblem(good.slice(0, 33))).toMatch(/34 characters/);
    expect(tronAddressProblem('A' + good.slice(1))).toMatch(/start with T/);
    expect(tronAddressProblem(good.slice(0, 33) + '0')).toMatch(/base58/);
    expect(tronAddressProblem('')).toMatch(/Enter/);
    expect(isTronAddress('0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf')).toBe(false);
  });

  it('rejects a valid createBase58check payload with another version byte', () => {
    const coder = createBase58check(sha256);
    const payload = new Uint8Array(21);
    payload[0] = 0x42;
    const other = coder.encode(payload);
    expect(isTronAddress(other)).toBe(false);
  });

  it('derives the address of a secp256k1 public key (private key 1 = generator G)', () => {
    const g = hexToBytes(
      '0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798' +
        '483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8',
    );
    const address = tronAddressFromPublicKey(g);
    expect(isTronAddress(address)).toBe(true);
    // Same 20-byte account id as Ethereum's well-known address of private key 1.
    expect(toHex(createBase58check(sha256).decode(address))).toBe(
      '41' + '7e5f4552091a69125d5dfcb7b8c2659029395bdf',
    );
    expect(() => tronAddressFromPublicKey(g.subarray(1))).toThrow(/65-byte/);
  });
});
