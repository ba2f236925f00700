import { MeSchema } from '@settlement/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SIGNATURE_PATTERN,
  secretsOf,
  startBff,
  startSandbox,
  transcript,
  type BffInstance,
  type SandboxProcess,
} from '../test-support/harness';

let sandbox: SandboxProcess;
let bff: BffInstance;
const others: BffInstance[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff({ sandbox });
}, 60_000);

/** The BFF's clock for one test: starts at the real time and moves only when the test says. */
function manualClock() {
  let at = Date.now();
  return {
    now: () => at,
    advance: (ms: number) => {
      at += ms;
    },
  };
}

afterAll(async () => {
  for (const instance of others) await instance.close();
  await bff.close();
  await sandbox.stop();
});

describe('login', () => {
  it('returns the identity and a __Host- session cookie (HttpOnly, Secure, SameSite=Strict, Path=/)', async () => {
    const response = await bff.call('POST', '/bff/auth/login', {
      body: { username: 'treasury', password: bff.password('treasury') },
    });
    expect(response.status).toBe(200);
    expect(MeSchema.parse(response.json)).toEqual({
      operator: { username: 'treasury', role: 'treasury' },
      csrfToken: expect.any(String),
      upstream: { kind: 'sandbox' },
      organization: { id: bff.credentials.orgId },
    });
    const cookie = response.headers['set-cookie'] ?? '';
    expect(cookie).toMatch(/^__Host-sc_session=[A-Za-z0-9_-]{43}; /);
    for (const attribute of ['Path=/', 'HttpOnly', 'Secure', 'SameSite=Strict']) {
      expect(cookie).toContain(attribute);
    }
    expect(cookie).not.toContain('Domain');
  });

  it('answers an unknown user and a wrong password identically with 401', async () => {
    const unknown = await bff.call('POST', '/bff/auth/login', {
      body: { username: 'nobody', password: 'whatever-password' },
    });
    const wrong = await bff.call('POST', '/bff/auth/login', {
      body: { username: 'support', password: 'wrong-password-x' },
    });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const strip = (json: unknown) => ({ ...(json as object), requestId: 'x' });
    expect(strip(unknown.json)).toEqual(strip(wrong.json));
    expect(unknown.json).toMatchObject({ code: 'UNAUTHENTICATED', retryable: false, details: [] });
  });

  it('locks a username after repeated failures with 429 RATE_LIMITED, even for the right password', async () => {
    for (let i = 0; i < 5; i += 1) {
      const failed = await bff.call('POST', '/bff/auth/login', {
        body: { username: 'admin', password: `guess-${i}-password` },
      });
      expect(failed.status).toBe(401);
    }
    const locked = await bff.call('POST', '/bff/auth/login', {
      body: { username: 'admin', password: bff.password('admin') },
    });
    expect(locked.status).toBe(429);
    expect(locked.json).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another operator from the same address is not affected.
    expect(
      (
        await bff.call('POST', '/bff/auth/login', {
          body: { username: 'support', password: bff.password('support') },
        })
      ).status,
    ).toBe(200);
  });

  it('refuses a login without a same-origin Origin header', async () => {
    const body = { username: 'support', password: bff.password('support') };
    const missing = await bff.call('POST', '/bff/auth/login', { body, origin: null });
    const foreign = await bff.call('POST', '/bff/auth/login', {
      body,
      origin: 'http://evil.example',
    });
    expect(missing.status).toBe(403);
    expect(foreign.status).toBe(403);
    expect(foreign.json).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('answers a malformed login body with 400 VALIDATION_ERROR', async () => {
    const response = await bff.call('POST', '/bff/auth/login', { rawBody: '{"username":' });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});

describe('sessions', () => {
  it('me returns the identity; logout kills the session row', async () => {
    const browser = await bff.login('support');
    const me = await bff.call('GET', '/bff/auth/me', { browser });
    expect(me.status).toBe(200);
    expect(MeSchema.parse(me.json)).toMatchObject({
      operator: { username: 'support', role: 'support' },
      csrfToken: browser.csrf,
    });
    const out = await bff.call('POST', '/bff/auth/logout', { browser });
    expect(out.status).toBe(204);
    expect(out.headers['set-cookie']).toContain('Max-Age=0');
    expect((await bff.call('GET', '/bff/auth/me', { browser })).status).toBe(401);
    expect((await bff.call('GET', '/bff/api/v1/assets', { browser })).status).toBe(401);
  });

  it('rotates the session at login: the previous cookie stops working', async () => {
    const first = await bff.login('support');
    const second = await bff.call('POST', '/bff/auth/login', {
      browser: first,
      body: { username: 'support', password: bff.password('support') },
    });
    expect(second.status).toBe(200);
    expect(second.headers['set-cookie']?.split(';')[0]).not.toBe(first.cookie);
    expect((await bff.call('GET', '/bff/auth/me', { browser: first })).status).toBe(401);
  });

  it('expires a session idle for longer than SESSION_IDLE_MS, and not before', async () => {
    const clock = manualClock();
    const short = await startBff({
      sandbox,
      env: { SESSION_IDLE_MS: '1000', SESSION_ABSOLUTE_MS: '60000' },
      now: clock.now,
    });
    others.push(short);
    const browser = await short.login('support');
    clock.advance(1_000);
    expect((await short.call('GET', '/bff/auth/me', { browser })).status).toBe(200);
    clock.advance(1_001);
    const expired = await short.call('GET', '/bff/auth/me', { browser });
    expect(expired.status).toBe(401);
    expect(expired.json).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('expires a session at its absolute lifetime even while in use', async () => {
    const clock = manualClock();
    const short = await startBff({
      sandbox,
      env: { SESSION_IDLE_MS: '1000', SESSION_ABSOLUTE_MS: '1600' },
      now: clock.now,
    });
    others.push(short);
    const browser = await short.login('support');
    // Kept busy (never idle for 1 s) until past the absolute lifetime.
    for (let step = 0; step < 3; step += 1) {
      clock.advance(500);
      expect((await short.call('GET', '/bff/auth/me', { browser })).status).toBe(200);
    }
    clock.advance(200);
    expect((await short.call('GET', '/bff/auth/me', { browser })).status).toBe(401);
  });
});

describe('CSRF and Origin on mutating requests', () => {
  it('refuses a missing or wrong CSRF token and a missing or foreign Origin with 403, before any upstream call', async () => {
    const browser = await bff.login('treasury');
    const before = await bff.upstreamCalls();
    const body = { name: 'Should not exist' };
    const cases = [
      { csrf: null },
      { csrf: 'wrong-token' },
      { origin: null },
      { origin: 'http://evil.example' },
      { origin: `${bff.url}.evil.example` },
    ];
    for (const options of cases) {
      const response = await bff.call('POST', '/bff/api/v1/ledger/accounts', {
        browser,
        body,
        ...options,
      });
      expect(response.status, JSON.stringify(options)).toBe(403);
      expect(response.json).toMatchObject({ code: 'FORBIDDEN', retryable: false });
    }
    const logout = await bff.call('POST', '/bff/auth/logout', { browser, csrf: null });
    expect(logout.status).toBe(403);
    expect(await bff.upstreamCalls()).toBe(before);
    const ok = await bff.call('POST', '/bff/api/v1/ledger/accounts', {
      browser,
      body: { name: 'CSRF ok' },
    });
    expect(ok.status).toBe(201);
  });

  it('sets a strict Content-Security-Policy without inline or eval script', async () => {
    const response = await bff.call('GET', '/bff/healthz');
    const csp = response.headers['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    // Inline styles are allowed (docs/decisions/001-inline-styles-in-csp.md); inline script never.
    const scriptSrc = csp.split(';').find((d) => d.startsWith('script-src')) ?? '';
    expect(scriptSrc).toBe("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
  });
});

describe('secrets', () => {
  it('never reveal seeds, passwords or signatures in any response body or log line of this suite', () => {
    const secrets = [bff, ...others].flatMap(secretsOf);
    const logs = [bff, ...others].flatMap((instance) => instance.logLines);
    expect(logs.length).toBeGreaterThan(10);
    for (const text of [...transcript, ...logs]) {
      for (const secret of secrets) expect(text.includes(secret)).toBe(false);
      expect(SIGNATURE_PATTERN.test(text)).toBe(false);
    }
    // Session cookies and CSRF tokens never reach a log line either.
    for (const line of logs) {
      expect(line).not.toMatch(/__Host-sc_session=/);
    }
  });
});
