import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyMessage } from '@settlement/protocol/signing';
import {
  isSignedBy,
  startFakeCoSignerUpstream,
  type FakeCoSignerUpstream,
} from '../test-support/fake-co-signer-upstream';
import { startCoSignerThread, type CoSignerThread } from './client-thread';

// The thread as a transport: the client's own behaviour (claims, refusals, failures) is
// client.test.ts's.

let upstream: FakeCoSignerUpstream;

beforeAll(async () => {
  upstream = await startFakeCoSignerUpstream();
});

afterAll(async () => {
  await upstream.close();
});

describe('the Co-Signer thread', () => {
  it('signs a share with the key pair it made, over a request signed with it too, and ends once', async () => {
    let exits = 0;
    const thread = startCoSignerThread(() => {
      exits += 1;
    });
    upstream.received.length = 0;
    const publicKey = new Uint8Array(Buffer.from(await thread.newKey('org_a'), 'base64'));
    expect(publicKey).toHaveLength(32);
    const job = { orgId: 'org_a', keyId: 'key_a', baseUrl: upstream.baseUrl };
    const intents = [{ id: 'intent_1', sessionId: 'session_open', digest: 'cd'.repeat(32) }];
    expect(await thread.signAll({ ...job, intents })).toEqual([]);
    const [share] = upstream.received;
    expect(share && isSignedBy(publicKey, 'key_a', share)).toBe(true);
    const { signature } = JSON.parse(share?.body ?? '{}') as { signature: string };
    expect(verifyMessage(publicKey, 'cd'.repeat(32), signature)).toBe(true);
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
