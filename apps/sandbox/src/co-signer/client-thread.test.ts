import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restCanonicalString, sha256Hex, verifyMessage } from '@settlement/protocol/signing';
import { startCoSignerThread, type CoSignerThread } from './client-thread';

type Received = { target: string; headers: IncomingMessage['headers']; body: string };

let server: Server;
let baseUrl: string;
const received: Received[] = [];
/** Intent ids whose claim the server refuses (409). */
const refusedClaims = new Set<string>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const target = req.url ?? '';
      received.push({ target, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const claim = /^\/api\/v1\/co-signer\/intents\/([^/]+)\/claim$/.exec(target);
      res.setHeader('content-type', 'application/json');
      if (claim?.[1] !== undefined && refusedClaims.has(claim[1])) {
        res.statusCode = 409;
        res.end(JSON.stringify({ code: 'CO_SIGNER_CLAIM_CONFLICT' }));
      } else if (claim) {
        res.end(JSON.stringify({ sessionId: `session-of-${claim[1]}` }));
      } else {
        res.end(JSON.stringify({ status: 'SIGNED' }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function isSignedBy(publicKey: Uint8Array, keyId: string, request: Received): boolean {
  const header = (name: string) => String(request.headers[name]);
  const canonical = restCanonicalString({
    method: 'POST',
    target: request.target,
    bodyHash: sha256Hex(request.body),
    timestamp: header('x-api-timestamp'),
    nonce: header('x-api-nonce'),
    keyId,
  });
  return (
    header('x-api-key-id') === keyId &&
    header('x-api-body-hash') === sha256Hex(request.body) &&
    verifyMessage(publicKey, canonical, header('x-api-signature'))
  );
}

describe('the Co-Signer thread', () => {
  it('claims, then sends a share signed with the key pair it made, over requests signed with it too', async () => {
    let exits = 0;
    const thread = startCoSignerThread(() => {
      exits += 1;
    });
    received.length = 0;
    const publicKey = new Uint8Array(Buffer.from(await thread.newKey('org_a'), 'base64'));
    expect(publicKey).toHaveLength(32);
    const warnings = await thread.signAll({
      orgId: 'org_a',
      keyId: 'key_a',
      baseUrl,
      intents: [
        { id: 'intent_1', sessionId: null, digest: 'ab'.repeat(32) },
        { id: 'intent_2', sessionId: 'session_open', digest: 'cd'.repeat(32) },
      ],
    });
    expect(warnings).toEqual([]);
    expect(received.map((r) => r.target).sort()).toEqual([
      '/api/v1/co-signer/intents/intent_1/claim',
      '/api/v1/co-signer/sessions/session-of-intent_1/messages',
      '/api/v1/co-signer/sessions/session_open/messages',
    ]);
    expect(received.every((r) => isSignedBy(publicKey, 'key_a', r))).toBe(true);
    const share = received.find((r) => r.target.includes('session_open'));
    expect(share?.headers['x-idempotency-key']).toBe('sign-session_open');
    const { digest, signature } = JSON.parse(share?.body ?? '{}') as {
      digest: string;
      signature: string;
    };
    expect(verifyMessage(publicKey, digest, signature)).toBe(true);
    await thread.close();
    expect(exits).toBe(1);
  });

  it('answers a refused claim with a warning naming the intent, and signs the others', async () => {
    const thread = startCoSignerThread(() => undefined);
    received.length = 0;
    refusedClaims.add('intent_refused');
    await thread.newKey('org_b');
    const warnings = await thread.signAll({
      orgId: 'org_b',
      keyId: 'key_b',
      baseUrl,
      intents: [
        { id: 'intent_refused', sessionId: null, digest: 'ef'.repeat(32) },
        { id: 'intent_fine', sessionId: null, digest: '01'.repeat(32) },
      ],
    });
    expect(warnings).toEqual([
      { message: 'co-signer claim refused', fields: { intentId: 'intent_refused', status: 409 } },
    ]);
    expect(received.map((r) => r.target)).toContain(
      '/api/v1/co-signer/sessions/session-of-intent_fine/messages',
    );
    await thread.close();
  });

  it('refuses to sign for an org it has no key for, and refuses everything once ended', async () => {
    const thread: CoSignerThread = startCoSignerThread(() => undefined);
    const job = { orgId: 'org_unknown', keyId: 'key_x', baseUrl, intents: [] };
    await expect(thread.signAll(job)).rejects.toThrow('no co-signer key for org org_unknown');
    await thread.close();
    await expect(thread.newKey('org_c')).rejects.toThrow('the co-signer thread exited');
  });
});
