import { describe, expect, it } from 'vitest';
import { generateSeed } from '@settlement/protocol/signing';
import { toBase64 } from '@settlement/protocol';
import { ConfigError, coSignerHealthUrlFor, loadConfig, parseKeys } from './config';

describe('loadConfig', () => {
  it('applies the documented defaults and derives the WebSocket URL', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      upstreamUrl: 'http://127.0.0.1:4010',
      upstreamWsUrl: 'ws://127.0.0.1:4010/v1/ws',
      upstreamKind: 'remote',
      sandbox: null,
      cookieName: '__Host-sc_session',
      sessionIdleMs: 900_000,
      sessionAbsoluteMs: 28_800_000,
    });
    expect(config.keysFile).toMatch(/\.data\/bff\/keys\.json$/);
    expect(coSignerHealthUrlFor(config, 'org1')).toBeNull();
  });

  it('switches to the sandbox kind with an admin token and treats empty values as unset', () => {
    const config = loadConfig({
      UPSTREAM_URL: 'https://sandbox.example/base/',
      SANDBOX_ADMIN_TOKEN: 'x'.repeat(20),
      PORT: '',
    });
    expect(config.port).toBe(8080);
    expect(config.upstreamKind).toBe('sandbox');
    expect(config.sandbox?.url).toBe('https://sandbox.example/base');
    expect(config.upstreamWsUrl).toBe('wss://sandbox.example/base/v1/ws');
    expect(coSignerHealthUrlFor(config, 'o/1')).toBe(
      'https://sandbox.example/base/co-signer/o%2F1/healthz',
    );
  });

  it('keeps SQLite in DATA_DIR by default and takes a postgres:// DATABASE_URL, nothing else', () => {
    expect(loadConfig({}).databaseUrl).toBeNull();
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeNull();
    const url = 'postgres://bff:secret@db.internal:5432/bff';
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/bff' }).databaseUrl).toBe(
      'postgresql://db/bff',
    );
    // Refused, and named without echoing the URL (it may carry a password).
    expect(() => loadConfig({ DATABASE_URL: 'mysql://u:s3cr3t@db/bff' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://u:s3cr3t@db/bff' })).not.toThrow(/s3cr3t/);
  });

  it('names every bad key at once', () => {
    expect(() =>
      loadConfig({ PORT: 'eighty', UPSTREAM_URL: 'ftp://x', SESSION_IDLE_MS: '-1' }),
    ).toThrow(/PORT.*UPSTREAM_URL.*SESSION_IDLE_MS/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
  });

  it('refuses an IP address as the WebAuthn relying party (browsers refuse every ceremony)', () => {
    expect(() => loadConfig({ WEBAUTHN_RP_ID: '127.0.0.1' })).toThrow(/WEBAUTHN_RP_ID/);
    expect(loadConfig({ WEBAUTHN_RP_ID: 'console.example' }).webauthn.rpId).toBe('console.example');
  });
});

describe('parseKeys', () => {
  const seed = toBase64(generateSeed());

  it('decodes seeds once and keeps scopes', () => {
    const keys = parseKeys({
      orgId: 'o',
      keys: [{ name: 'reader', keyId: 'k1', seed, scopes: ['wallets:read'] }],
    });
    expect(keys.keys[0]?.seed).toHaveLength(32);
  });

  it('refuses a short seed, an unknown scope and duplicate names, naming each problem', () => {
    const error = (() => {
      try {
        parseKeys({
          orgId: 'o',
          keys: [
            { name: 'a', keyId: 'k1', seed: toBase64(new Uint8Array(16)), scopes: ['co-signer'] },
            { name: 'b', keyId: 'k2', seed, scopes: ['wallets:read'] },
          ],
        });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('keys.0.seed');
    expect(message).toContain('keys.0.scopes.0');
    expect(message).not.toContain(seed);
    const twice = { name: 'a', keyId: 'k1', seed, scopes: ['wallets:read'] };
    expect(() => parseKeys({ orgId: 'o', keys: [twice, twice] })).toThrow(/unique/);
  });
});
