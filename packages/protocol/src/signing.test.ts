import { hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { toBase64, toHex, utf8Bytes } from './encoding';
import {
  CanonicalFieldError,
  createNobleSigner,
  decodeKey32,
  generateSeed,
  publicKeyFromSeed,
  restCanonicalString,
  sha256Hex,
  signMessage,
  signRestRequest,
  signWsHandshake,
  verifyMessage,
  wsCanonicalString,
} from './signing';

// RFC 8032 §7.1, tests 1-3.
const RFC8032 = [
  {
    seed: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    publicKey: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    message: '',
    signature:
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  },
  {
    seed: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    publicKey: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
    message: '72',
    signature:
      '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  },
  {
    seed: 'c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7',
    publicKey: 'fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025',
    message: 'af82',
    signature:
      '6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a',
  },
];

describe('Ed25519 through our functions', () => {
  it.each(RFC8032.map((v, i) => [i + 1, v] as const))(
    'RFC 8032 test %i signs and verifies',
    (_n, v) => {
      const seed = hexToBytes(v.seed);
      const message = hexToBytes(v.message);
      expect(toHex(publicKeyFromSeed(seed))).toBe(v.publicKey);
      const signature = signMessage(seed, message);
      expect(signature).toBe(toBase64(hexToBytes(v.signature)));
      expect(verifyMessage(hexToBytes(v.publicKey), message, signature)).toBe(true);
    },
  );

  it('verify rejects a changed message, a flipped signature bit and malformed Base64', () => {
    const v = RFC8032[2]!;
    const publicKey = hexToBytes(v.publicKey);
    const good = toBase64(hexToBytes(v.signature));
    expect(verifyMessage(publicKey, hexToBytes('af83'), good)).toBe(false);
    const flipped = hexToBytes(v.signature);
    flipped[0]! ^= 1;
    expect(verifyMessage(publicKey, hexToBytes('af82'), toBase64(flipped))).toBe(false);
    expect(verifyMessage(publicKey, hexToBytes('af82'), 'not base64!')).toBe(false);
    expect(verifyMessage(publicKey, hexToBytes('af82'), toBase64(new Uint8Array(63)))).toBe(false);
    expect(verifyMessage(new Uint8Array(31), hexToBytes('af82'), good)).toBe(false);
  });

  it('verify is strict: a non-canonical S (S + L) is refused', () => {
    const v = RFC8032[0]!;
    const signature = hexToBytes(v.signature);
    const L = 2n ** 252n + 27742317777372353535851937790883648493n;
    let s = 0n;
    for (let i = 31; i >= 0; i--) s = (s << 8n) | BigInt(signature[32 + i]!);
    let sPlusL = s + L;
    for (let i = 0; i < 32; i++) {
      signature[32 + i] = Number(sPlusL & 0xffn);
      sPlusL >>= 8n;
    }
    expect(verifyMessage(hexToBytes(v.publicKey), new Uint8Array(), toBase64(signature))).toBe(
      false,
    );
  });

  it('a generated seed signs what its public key verifies', () => {
    const seed = generateSeed();
    expect(seed).toHaveLength(32);
    const signer = createNobleSigner('key-1', seed);
    expect(verifyMessage(publicKeyFromSeed(seed), 'hello', signer.sign('hello'))).toBe(true);
  });

  it('decodeKey32 accepts padded Base64 of 32 bytes and explains anything else', () => {
    expect(decodeKey32(toBase64(new Uint8Array(32)))).toHaveLength(32);
    expect(() => decodeKey32('abc', 'seed')).toThrow(/seed is not standard padded Base64/);
    expect(() => decodeKey32(toBase64(new Uint8Array(16)), 'seed')).toThrow(/32 bytes, got 16/);
  });
});

describe('canonical strings', () => {
  it('REST: six lines joined by \\n with the raw encoded target kept byte for byte', () => {
    expect(
      restCanonicalString({
        method: 'get',
        target: '/api/v1/wallets?addressContains=T%7E1&status=ACTIVE&cursor=a%2Fb',
        bodyHash: null,
        timestamp: '1700000000',
        nonce: 'n-1',
        keyId: 'key_abc',
      }),
    ).toBe(
      'GET\n/api/v1/wallets?addressContains=T%7E1&status=ACTIVE&cursor=a%2Fb\n\n1700000000\nn-1\nkey_abc',
    );
  });

  it('REST: body hash of exact bytes on line three, no trailing newline', () => {
    const hash = sha256Hex('{}');
    expect(hash).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
    expect(
      restCanonicalString({
        method: 'POST',
        target: '/api/v1/mpc/initialize',
        bodyHash: hash,
        timestamp: '1700000000',
        nonce: 'abc',
        keyId: 'k',
      }),
    ).toBe(`POST\n/api/v1/mpc/initialize\n${hash}\n1700000000\nabc\nk`);
  });

  it('WebSocket: four lines, never the REST form', () => {
    expect(wsCanonicalString({ timestamp: '1700000000', nonce: 'xyz' })).toBe(
      'WS_CONNECT\n/v1/ws\n1700000000\nxyz',
    );
  });

  it('refuses fields containing a line break', () => {
    expect(() =>
      restCanonicalString({
        method: 'GET',
        target: '/x\n',
        bodyHash: null,
        timestamp: '1',
        nonce: 'n',
        keyId: 'k',
      }),
    ).toThrow(CanonicalFieldError);
    expect(() => wsCanonicalString({ timestamp: '1', nonce: 'a\rb' })).toThrow(CanonicalFieldError);
  });

  it('sha256Hex hashes the exact bytes: string as UTF-8, bytes as given', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex(new Uint8Array([0xc3, 0xa9]))).toBe(sha256Hex('é'));
  });
});

describe('signed request headers', () => {
  const seed = hexToBytes(RFC8032[0]!.seed);
  const publicKey = publicKeyFromSeed(seed);
  const signer = createNobleSigner('key_1', seed);

  it('signs the REST canonical string over the given body bytes', () => {
    const body = utf8Bytes('{"name":"Ops"}');
    const headers = signRestRequest(
      signer,
      { method: 'POST', target: '/api/v1/ledger/accounts', body },
      { now: 1_700_000_000_999, nonce: 'fixed' },
    );
    expect(headers['X-Api-Timestamp']).toBe('1700000000');
    expect(headers['X-Api-Body-Hash']).toBe(sha256Hex(body));
    const canonical = `POST\n/api/v1/ledger/accounts\n${sha256Hex(body)}\n1700000000\nfixed\nkey_1`;
    expect(verifyMessage(publicKey, canonical, headers['X-Api-Signature'])).toBe(true);
  });

  it('omits the body hash header when no body bytes are sent', () => {
    const headers = signRestRequest(signer, {
      method: 'GET',
      target: '/api/v1/assets',
      body: null,
    });
    expect(headers['X-Api-Body-Hash']).toBeUndefined();
    expect(headers['X-Api-Nonce']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('signs the WebSocket handshake over the four-line value', () => {
    const headers = signWsHandshake(signer, { now: 1_700_000_000_000, nonce: 'ws-n' });
    const canonical = 'WS_CONNECT\n/v1/ws\n1700000000\nws-n';
    expect(verifyMessage(publicKey, canonical, headers['X-Api-Signature'])).toBe(true);
  });
});
