import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MeSchema,
  OneTimePasswordSchema,
  OperatorListSchema,
  PasskeyCreationOptionsSchema,
  PasskeyEnrolledSchema,
  PasskeyListSchema,
  PasskeyRequestOptionsSchema,
  PendingSignInSchema,
  SessionListSchema,
  StepUpSchema,
} from '@settlement/protocol';
import {
  startBff,
  startSandbox,
  type BffInstance,
  type Browser,
  type SandboxProcess,
} from '../test-support/harness';
import {
  createSoftwareAuthenticator,
  type SoftwareAuthenticator,
} from '../test-support/authenticator';

const RP_ID = 'console.example.test';
const ORIGIN = 'https://console.example.test';
const WEBAUTHN_ENV = { WEBAUTHN_RP_ID: RP_ID, WEBAUTHN_ORIGINS: ORIGIN };

let sandbox: SandboxProcess;
let bff: BffInstance;
/** The BFF's clock: real time plus what a test skips ahead. */
let skippedMs = 0;

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff({ sandbox, env: WEBAUTHN_ENV, now: () => Date.now() + skippedMs });
}, 60_000);

afterAll(async () => {
  await bff.close();
  await sandbox.stop();
});

async function enroll(
  instance: BffInstance,
  browser: Browser,
  authenticator: SoftwareAuthenticator,
  name = 'Laptop',
) {
  const options = await instance.call('POST', '/bff/auth/passkeys/register/options', { browser });
  expect(options.status).toBe(200);
  const credential = authenticator.register(
    PasskeyCreationOptionsSchema.parse(options.json),
    ORIGIN,
  );
  const verified = await instance.call('POST', '/bff/auth/passkeys/register/verify', {
    browser,
    body: { name, credential },
  });
  expect(verified.status, verified.text).toBe(201);
  return PasskeyEnrolledSchema.parse(verified.json);
}

async function assertion(
  browser: Browser,
  authenticator: SoftwareAuthenticator,
  route: 'step-up' | 'passkeys/login',
) {
  const options = await bff.call('POST', `/bff/auth/${route}/options`, { browser });
  expect(options.status, options.text).toBe(200);
  return authenticator.assert(PasskeyRequestOptionsSchema.parse(options.json), ORIGIN);
}

async function stepUp(browser: Browser, authenticator: SoftwareAuthenticator) {
  const credential = await assertion(browser, authenticator, 'step-up');
  return bff.call('POST', '/bff/auth/step-up/verify', { browser, body: { credential } });
}

const approveSomething = (browser: Browser) =>
  bff.call('POST', '/bff/withdrawal-requests/wr_none/approve', { browser });
const sendSomething = (browser: Browser) =>
  bff.call('POST', '/bff/api/v1/transactions', {
    browser,
    headers: { 'x-operation-id': `op-${Date.now()}-${Math.random()}` },
    body: {},
  });

function auditRows(action: string): { operator: string; outcome: string }[] {
  return bff.db
    .prepare('SELECT operator, outcome FROM audit_log WHERE action = ? ORDER BY id')
    .all(action) as { operator: string; outcome: string }[];
}

describe('passkeys and step-up', () => {
  const authenticator = createSoftwareAuthenticator(RP_ID);
  let treasury: Browser;

  it('enrolls a named passkey, listed with its last use; a holder then needs a step-up to approve or send', async () => {
    treasury = await bff.login('treasury');
    // No passkey yet: the guard does not apply (the request reaches the governance service).
    expect((await approveSomething(treasury)).status).toBe(404);

    const enrolled = await enroll(bff, treasury, authenticator, 'Work laptop');
    expect(enrolled.passkey).toMatchObject({ name: 'Work laptop', lastUsedAt: null });
    const list = PasskeyListSchema.parse(
      (await bff.call('GET', '/bff/auth/passkeys', { browser: treasury })).json,
    );
    expect(list.items.map((p) => p.name)).toEqual(['Work laptop']);
    expect(auditRows('passkey.register')).toContainEqual({
      operator: 'treasury',
      outcome: 'success',
    });

    const calls = await bff.upstreamCalls();
    for (const response of [await approveSomething(treasury), await sendSomething(treasury)]) {
      expect(response.status).toBe(401);
      expect(response.json).toMatchObject({ code: 'STEP_UP_REQUIRED' });
      expect(response.headers['x-request-id']).toBe(
        (response.json as { requestId: string }).requestId,
      );
    }
    expect(await bff.upstreamCalls()).toBe(calls);
    // The session itself is intact: a 401 STEP_UP_REQUIRED is not a sign-out.
    expect((await bff.call('GET', '/bff/auth/me', { browser: treasury })).status).toBe(200);

    const stepped = await stepUp(treasury, authenticator);
    expect(stepped.status, stepped.text).toBe(200);
    expect((await approveSomething(treasury)).status).toBe(404);
    expect((await sendSomething(treasury)).status).not.toBe(401);
    const used = PasskeyListSchema.parse(
      (await bff.call('GET', '/bff/auth/passkeys', { browser: treasury })).json,
    );
    expect(used.items[0]?.lastUsedAt).not.toBeNull();
  });

  it('refuses a replayed step-up assertion (the challenge is single use) and audits it', async () => {
    const credential = await assertion(treasury, authenticator, 'step-up');
    const first = await bff.call('POST', '/bff/auth/step-up/verify', {
      browser: treasury,
      body: { credential },
    });
    expect(first.status).toBe(200);
    expect(Date.parse(StepUpSchema.parse(first.json).freshUntil)).toBeGreaterThan(Date.now());
    const replay = await bff.call('POST', '/bff/auth/step-up/verify', {
      browser: treasury,
      body: { credential },
    });
    expect(replay.status).toBe(401);
    expect(replay.json).toMatchObject({ code: 'STEP_UP_REQUIRED' });
    expect(auditRows('passkey.assertion').at(-1)).toEqual({
      operator: 'treasury',
      outcome: 'failure',
    });
  });

  it('refuses a step-up older than 5 minutes, and a challenge older than 2 minutes', async () => {
    expect((await stepUp(treasury, authenticator)).status).toBe(200);
    skippedMs += 4 * 60_000 + 59_000;
    expect((await approveSomething(treasury)).status).toBe(404);
    skippedMs += 2_000;
    const stale = await approveSomething(treasury);
    expect(stale.status).toBe(401);
    expect(stale.json).toMatchObject({ code: 'STEP_UP_REQUIRED' });

    const credential = await assertion(treasury, authenticator, 'step-up');
    skippedMs += 2 * 60_000 + 1_000;
    const late = await bff.call('POST', '/bff/auth/step-up/verify', {
      browser: treasury,
      body: { credential },
    });
    expect(late.status).toBe(401);
    expect((await stepUp(treasury, authenticator)).status).toBe(200);
  });

  it('refuses an assertion whose signature counter went backwards (a cloned authenticator)', async () => {
    const options = await bff.call('POST', '/bff/auth/step-up/options', { browser: treasury });
    const counter = authenticator.counter;
    const cloned = authenticator.assert(PasskeyRequestOptionsSchema.parse(options.json), ORIGIN, {
      counter: 1,
    });
    authenticator.counter = counter;
    const response = await bff.call('POST', '/bff/auth/step-up/verify', {
      browser: treasury,
      body: { credential: cloned },
    });
    expect(response.status).toBe(401);
  });

  it('signs in with password then passkey; until then the session can do nothing else', async () => {
    const login = await bff.call('POST', '/bff/auth/login', {
      body: { username: 'treasury', password: bff.password('treasury') },
    });
    expect(PendingSignInSchema.parse(login.json).signInStep).toBe('passkey');
    const cookie = (login.headers['set-cookie'] ?? '').split(';')[0] ?? null;
    const pending: Browser = { cookie, csrf: PendingSignInSchema.parse(login.json).csrfToken };
    expect((await bff.call('GET', '/bff/auth/me', { browser: pending })).status).toBe(401);
    expect((await bff.call('GET', '/bff/api/v1/assets', { browser: pending })).status).toBe(401);

    const credential = await assertion(pending, authenticator, 'passkeys/login');
    const done = await bff.call('POST', '/bff/auth/passkeys/login/verify', {
      browser: pending,
      body: { credential },
    });
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ operator: { username: 'treasury' } });
    const replay = await bff.call('POST', '/bff/auth/passkeys/login/verify', {
      browser: pending,
      body: { credential },
    });
    expect(replay.status).toBe(403);
    expect((await bff.call('GET', '/bff/auth/me', { browser: pending })).status).toBe(200);
    // The sign-in assertion was user-verified: it is a fresh step-up.
    expect((await approveSomething(pending)).status).toBe(404);
  });

  it("refuses another operator's passkey at step-up", async () => {
    const admin2 = await bff.login('admin2');
    const other = createSoftwareAuthenticator(RP_ID);
    await enroll(bff, admin2, other, 'Security key');
    const options = await bff.call('POST', '/bff/auth/step-up/options', { browser: admin2 });
    const foreign = authenticator.assert(PasskeyRequestOptionsSchema.parse(options.json), ORIGIN);
    const response = await bff.call('POST', '/bff/auth/step-up/verify', {
      browser: admin2,
      body: { credential: foreign },
    });
    expect(response.status).toBe(401);
  });
});

describe('sessions', () => {
  it('lists sessions with opaque ids, device and a current marker; ending one stops its cookie at once', async () => {
    const first = await bff.login('admin');
    const second = await bff.login('admin');
    const listed = await bff.call('GET', '/bff/auth/sessions', {
      browser: first,
      headers: { 'user-agent': 'ignored' },
    });
    const { items } = SessionListSchema.parse(listed.json);
    expect(items.length).toBeGreaterThanOrEqual(2);
    expect(items.filter((s) => s.isCurrent)).toHaveLength(1);
    const secretOf = (b: Browser) => (b.cookie ?? '').split('=')[1] ?? '';
    for (const browser of [first, second]) {
      expect(listed.text).not.toContain(secretOf(browser));
      expect(listed.text).not.toContain(
        createHash('sha256').update(secretOf(browser)).digest('hex'),
      );
    }
    const other = items.find((s) => !s.isCurrent);
    if (!other) throw new Error('no other session');
    const ended = await bff.call('DELETE', `/bff/auth/sessions/${other.id}`, { browser: first });
    expect(ended.status).toBe(204);
    const statuses = await Promise.all(
      [first, second].map(
        async (b) => (await bff.call('GET', '/bff/auth/me', { browser: b })).status,
      ),
    );
    expect(statuses.sort()).toEqual([200, 401]);
  });

  it("refuses a non-admin another operator's sessions", async () => {
    const support = await bff.login('support');
    const response = await bff.call('GET', '/bff/auth/sessions?username=admin', {
      browser: support,
    });
    expect(response.status).toBe(403);
  });
});

describe('operators', () => {
  it('disabling an operator stops their cookie at once and refuses their password', async () => {
    const admin = await bff.login('admin');
    const victim = await bff.login('support');
    const support = (await bff.call('GET', '/bff/auth/me', { browser: victim })).status;
    expect(support).toBe(200);
    const disabled = await bff.call('PATCH', '/bff/operators/support', {
      browser: admin,
      body: { disabled: true },
    });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.json).toMatchObject({ username: 'support', isDisabled: true });
    expect((await bff.call('GET', '/bff/auth/me', { browser: victim })).status).toBe(401);
    const again = await bff.call('POST', '/bff/auth/login', {
      body: { username: 'support', password: bff.password('support') },
    });
    expect(again.status).toBe(401);
    await bff.call('PATCH', '/bff/operators/support', {
      browser: admin,
      body: { disabled: false },
    });
    expect((await bff.login('support')).cookie).not.toBeNull();
  });

  it('never leaves the organization without an enabled admin', async () => {
    const admin = await bff.login('admin');
    expect(
      (
        await bff.call('PATCH', '/bff/operators/admin2', {
          browser: admin,
          body: { disabled: true },
        })
      ).status,
    ).toBe(200);
    const demote = await bff.call('PATCH', '/bff/operators/admin', {
      browser: admin,
      body: { role: 'treasury' },
    });
    expect(demote.status).toBe(409);
    expect(demote.json).toMatchObject({ code: 'LAST_ADMIN_PROTECTED' });
    const self = await bff.call('PATCH', '/bff/operators/admin', {
      browser: admin,
      body: { disabled: true },
    });
    expect(self.status).toBe(403);
    await bff.call('PATCH', '/bff/operators/admin2', { browser: admin, body: { disabled: false } });
    // With another admin, demoting oneself is allowed (and reversible by that admin).
    const list = await bff.call('GET', '/bff/operators', { browser: admin });
    expect(OperatorListSchema.parse(list.json).items).toContainEqual(
      expect.objectContaining({ username: 'admin', role: 'admin' }),
    );
    expect(auditRows('operator.update')).toContainEqual({
      operator: 'admin',
      outcome: 'refused-last-admin',
    });
  });

  it('adds an operator with a one-time password that must be replaced by a strong one', async () => {
    const admin = await bff.login('admin');
    const created = await bff.call('POST', '/bff/operators', {
      browser: admin,
      body: { username: 'newcomer', role: 'support' },
    });
    expect(created.status, created.text).toBe(201);
    const { oneTimePassword } = OneTimePasswordSchema.parse(created.json);
    const login = await bff.call('POST', '/bff/auth/login', {
      body: { username: 'newcomer', password: oneTimePassword },
    });
    const pending = PendingSignInSchema.parse(login.json);
    expect(pending.signInStep).toBe('change-password');
    const browser: Browser = {
      cookie: (login.headers['set-cookie'] ?? '').split(';')[0] ?? null,
      csrf: pending.csrfToken,
    };
    for (const weak of ['short1!', 'password1234', 'newcomer12345']) {
      const refused = await bff.call('POST', '/bff/auth/password', {
        browser,
        body: { currentPassword: oneTimePassword, newPassword: weak },
      });
      expect(refused.status, weak).toBe(422);
      expect(refused.json).toMatchObject({ code: 'PASSWORD_TOO_WEAK' });
    }
    const changed = await bff.call('POST', '/bff/auth/password', {
      browser,
      body: { currentPassword: oneTimePassword, newPassword: 'violet tractor humming 42 lanterns' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(MeSchema.parse(changed.json).operator).toEqual({
      username: 'newcomer',
      role: 'support',
    });
    expect((await bff.call('GET', '/bff/auth/me', { browser })).status).toBe(200);
  });
});

describe('passkeys required', () => {
  it('makes enrollment the first step after the password, and keeps the last passkey', async () => {
    const strict = await startBff({
      sandbox,
      env: { ...WEBAUTHN_ENV, REQUIRE_PASSKEYS: 'true' },
    });
    try {
      const login = await strict.call('POST', '/bff/auth/login', {
        body: { username: 'treasury', password: strict.password('treasury') },
      });
      const pending = PendingSignInSchema.parse(login.json);
      expect(pending.signInStep).toBe('enroll-passkey');
      const browser: Browser = {
        cookie: (login.headers['set-cookie'] ?? '').split(';')[0] ?? null,
        csrf: pending.csrfToken,
      };
      expect((await strict.call('GET', '/bff/auth/me', { browser })).status).toBe(401);
      const enrolled = await enroll(strict, browser, createSoftwareAuthenticator(RP_ID));
      expect(enrolled.signIn).toMatchObject({ operator: { username: 'treasury' } });
      expect((await strict.call('GET', '/bff/auth/me', { browser })).status).toBe(200);
      // Removing it needs a step-up first, and then is refused: it is the last one.
      const removal = await strict.call('DELETE', `/bff/auth/passkeys/${enrolled.passkey.id}`, {
        browser,
      });
      expect(removal.json).toMatchObject({ code: 'STEP_UP_REQUIRED' });
    } finally {
      await strict.close();
    }
  });
});
