import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyMessage } from '@settlement/protocol/signing';
import {
  isSignedBy,
  startFakeCoSignerUpstream,
  type FakeCoSignerUpstream,
} from '../test-support/fake-co-signer-upstream';
import {
  answerThreadRequest,
  createCoSignerClient,
  type CoSignerClient,
  type SignJob,
} from './client';

// The client in this thread, so its every branch is measured; client-thread.test.ts runs the
// same client behind its worker thread, where coverage cannot see it.

let upstream: FakeCoSignerUpstream;
let client: CoSignerClient;

beforeAll(async () => {
  upstream = await startFakeCoSignerUpstream();
  client = createCoSignerClient();
});

afterEach(() => {
  upstream.received.length = 0;
  upstream.answers.clear();
});

afterAll(async () => {
  client.close();
  await upstream.close();
});

const digest = (byte: string) => byte.repeat(32);
const publicKeyOf = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));

/** One round of `org`'s Co-Signer over `intents`, its requests signed as key `key_<org>`. */
const signAs = (org: string, intents: SignJob['intents'], baseUrl = upstream.baseUrl) =>
  client.signAll({ orgId: org, keyId: `key_${org}`, baseUrl, intents });

describe('the Co-Signer client', () => {
  it('claims an unclaimed intent, then sends a share of its digest, every request signed by the new key', async () => {
    const publicKey = publicKeyOf(client.newKey('org_a'));
    const warnings = await signAs('org_a', [
      { id: 'intent/1', sessionId: null, digest: digest('ab') },
      { id: 'intent_2', sessionId: 'session_open', digest: digest('cd') },
    ]);
    expect(warnings).toEqual([]);
    expect(upstream.received.map((r) => r.target).sort()).toEqual([
      '/api/v1/co-signer/intents/intent%2F1/claim',
      '/api/v1/co-signer/sessions/session-of-intent%2F1/messages',
      '/api/v1/co-signer/sessions/session_open/messages',
    ]);
    expect(upstream.received.every((r) => isSignedBy(publicKey, 'key_org_a', r))).toBe(true);
    const claim = upstream.received.find((r) => r.target.endsWith('/claim'));
    expect(claim?.headers['x-idempotency-key']).toBe('claim-intent/1');
    expect(JSON.parse(claim?.body ?? '{}')).toEqual({ coSignerId: 'sandbox-co-signer-simulator' });
    const share = upstream.received.find((r) => r.target.includes('session_open'));
    expect(share?.headers['x-idempotency-key']).toBe('sign-session_open');
    const body = JSON.parse(share?.body ?? '{}') as Record<string, string>;
    expect(body.type).toBe('SIGNATURE_SHARE');
    expect(body.digest).toBe(digest('cd'));
    expect(verifyMessage(publicKey, digest('cd'), body.signature ?? '')).toBe(true);
  });

  it('signs with the newest key of an org once its key is replaced', async () => {
    const first = publicKeyOf(client.newKey('org_b'));
    const second = publicKeyOf(client.newKey('org_b'));
    await signAs('org_b', [{ id: 'i', sessionId: 's', digest: digest('01') }]);
    const [share] = upstream.received;
    expect(share && isSignedBy(second, 'key_org_b', share)).toBe(true);
    expect(share && isSignedBy(first, 'key_org_b', share)).toBe(false);
  });

  it('warns of each refused claim and message by id and status, without a key or a signature, and signs the rest', async () => {
    client.newKey('org_c');
    upstream.answers.set('intent_refused', 'refuse');
    upstream.answers.set('session_refused', 'refuse');
    const warnings = await signAs('org_c', [
      { id: 'intent_refused', sessionId: null, digest: digest('02') },
      { id: 'intent_late', sessionId: 'session_refused', digest: digest('03') },
      { id: 'intent_fine', sessionId: null, digest: digest('04') },
    ]);
    expect(warnings).toEqual(
      expect.arrayContaining([
        { message: 'co-signer claim refused', fields: { intentId: 'intent_refused', status: 409 } },
        {
          message: 'co-signer message refused',
          fields: { sessionId: 'session_refused', status: 409 },
        },
      ]),
    );
    expect(warnings).toHaveLength(2);
    expect(upstream.received.map((r) => r.target)).toContain(
      '/api/v1/co-signer/sessions/session-of-intent_fine/messages',
    );
  });

  it('sends no share for a claim answered without a session', async () => {
    client.newKey('org_d');
    upstream.answers.set('intent_sessionless', 'no-session');
    const warnings = await signAs('org_d', [
      { id: 'intent_sessionless', sessionId: null, digest: digest('05') },
    ]);
    expect(warnings).toEqual([]);
    expect(upstream.received.map((r) => r.target)).toEqual([
      '/api/v1/co-signer/intents/intent_sessionless/claim',
    ]);
  });

  it('turns an answer that is not JSON, a dropped connection or an unreachable upstream into a warning for that intent alone', async () => {
    client.newKey('org_e');
    upstream.answers.set('intent_garbled', 'not-json');
    upstream.answers.set('intent_dropped', 'hang-up');
    const warnings = await signAs('org_e', [
      { id: 'intent_garbled', sessionId: null, digest: digest('06') },
      { id: 'intent_dropped', sessionId: null, digest: digest('07') },
      { id: 'intent_fine', sessionId: null, digest: digest('08') },
    ]);
    expect(warnings.map((w) => [w.message, w.fields.intentId])).toEqual(
      expect.arrayContaining([
        ['co-signer round failed', 'intent_garbled'],
        ['co-signer round failed', 'intent_dropped'],
      ]),
    );
    expect(warnings).toHaveLength(2);
    expect(upstream.received.map((r) => r.target)).toContain(
      '/api/v1/co-signer/sessions/session-of-intent_fine/messages',
    );

    const unreachable = await signAs(
      'org_e',
      [{ id: 'intent_lost', sessionId: null, digest: digest('09') }],
      'http://127.0.0.1:1',
    );
    expect(unreachable).toEqual([
      {
        message: 'co-signer round failed',
        fields: { intentId: 'intent_lost', err: expect.stringContaining('ECONNREFUSED') as string },
      },
    ]);
  });

  it('refuses to sign for an org it holds no key for, calling nothing', async () => {
    await expect(
      signAs('org_unknown', [{ id: 'i', sessionId: null, digest: digest('0a') }]),
    ).rejects.toThrow('no co-signer key for org org_unknown');
    expect(upstream.received).toEqual([]);
  });

  it("answers the thread's requests by id: a key, a round's warnings, or the error's message", async () => {
    const made = await answerThreadRequest(client, { id: 1, kind: 'new-key', orgId: 'org_f' });
    expect(made).toMatchObject({ id: 1, isOk: true });
    expect(made.isOk && publicKeyOf(String(made.value))).toHaveLength(32);
    const job = { orgId: 'org_f', keyId: 'key_f', baseUrl: upstream.baseUrl, intents: [] };
    expect(await answerThreadRequest(client, { id: 2, kind: 'sign', job })).toEqual({
      id: 2,
      isOk: true,
      value: [],
    });
    const unknown = { ...job, orgId: 'org_none' };
    expect(await answerThreadRequest(client, { id: 3, kind: 'sign', job: unknown })).toEqual({
      id: 3,
      isOk: false,
      error: 'no co-signer key for org org_none',
    });
  });
});
