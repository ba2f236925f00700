import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyMessage } from '@settlement/protocol/signing';
import {
  isSignedBy,
  startFakeCoSignerUpstream,
  type FakeCoSignerUpstream,
} from '../test-support/fake-co-signer-upstream';
import { startCoSignerThread, type CoSignerThread } from './client-thread';

// The thread as a transport: the client's own behaviour is client.test.ts's.

let upstream: FakeCoSignerUpstream;

beforeAll(async () => {
  upstream = await startFakeCoSignerUpstream();
});

afterAll(async () => {
  await upstream.close();
});

describe('the Co-Signer thread', () => {
  it('claims, then sends a share signed with the key pair it made, over requests signed with it too', async () => {
    let exits = 0;
    const thread = startCoSignerThread(() => {
      exits += 1;
    });
    upstream.received.length = 0;
    const publicKey = new Uint8Array(Buffer.from(await thread.newKey('org_a'), 'base64'));
    expect(publicKey).toHaveLength(32);
    const warnings = await thread.signAll({
      orgId: 'org_a',
      keyId: 'key_a',
      baseUrl: upstream.baseUrl,
      intents: [
        { id: 'intent_1', sessionId: null, digest: 'ab'.repeat(32) },
        { id: 'intent_2', sessionId: 'session_open', digest: 'cd'.repeat(32) },
      ],
    });
    expect(warnings).toEqual([]);
    expect(upstream.received.map((r) => r.target).sort()).toEqual([
      '/api/v1/co-signer/intents/intent_1/claim',
      '/api/v1/co-signer/sessions/session-of-intent_1/messages',
      '/api/v1/co-signer/sessions/session_open/messages',
    ]);
    expect(upstream.received.every((r) => isSignedBy(publicKey, 'key_a', r))).toBe(true);
    const share = upstream.received.find((r) => r.target.includes('session_open'));
    const { digest, signature } = JSON.parse(share?.body ?? '{}') as {
      digest: string;
      signature: string;
    };
    expect(verifyMessage(publicKey, digest, signature)).toBe(true);
    await thread.close();
    expect(exits).toBe(1);
  });

  it('carries the warnings of a round back across the thread', async () => {
    const thread = startCoSignerThread(() => undefined);
    upstream.answers.set('intent_refused', 'refuse');
    await thread.newKey('org_b');
    const warnings = await thread.signAll({
      orgId: 'org_b',
      keyId: 'key_b',
      baseUrl: upstream.baseUrl,
      intents: [{ id: 'intent_refused', sessionId: null, digest: 'ef'.repeat(32) }],
    });
    expect(warnings).toEqual([
      { message: 'co-signer claim refused', fields: { intentId: 'intent_refused', status: 409 } },
    ]);
    upstream.answers.clear();
    await thread.close();
  });

  it('refuses to sign for an org it has no key for, and refuses everything once ended', async () => {
    const thread: CoSignerThread = startCoSignerThread(() => undefined);
    const job = { orgId: 'org_unknown', keyId: 'key_x', baseUrl: upstream.baseUrl, intents: [] };
    await expect(thread.signAll(job)).rejects.toThrow('no co-signer key for org org_unknown');
    await thread.close();
    await expect(thread.newKey('org_c')).rejects.toThrow('the co-signer thread exited');
  });
});
