import { Agent, request } from 'node:http';
import sodium from 'sodium-native';
import { CO_SIGNER_SCOPE, utf8Bytes } from '@settlement/protocol';
import { signRestRequest, type Signer } from '@settlement/protocol/signing';
import type { Logger } from 'pino';
import { createApiKey } from '../domain/orgs';
import { openIntents } from '../domain/transactions-signing';
import type { Db } from '../store/db';
import { prepared } from '../store/prepared';

/**
 * The embedded Co-Signer simulator. For every org whose Co-Signer switch is online it polls
 * for signing intents and signs them THROUGH THE INTERFACE, over real HTTP to the sandbox's
 * own port: POST /api/v1/co-signer/intents/{id}/claim, then
 * POST /api/v1/co-signer/sessions/{sessionId}/messages, each signed with the org's own
 * `co-signer` API key (created through the store on first use; its seed lives only in this
 * process's memory) and carrying an idempotency key derived from the intent or session.
 * While the switch is offline nothing is signed, so transactions wait and eventually time out.
 *
 * Intents are signed a few at a time (SIGNING_CONCURRENCY) over keep-alive connections, with
 * node:crypto Ed25519 (one intent at a time, over `fetch` with noble signatures, capped the
 * whole sandbox at ~20 withdrawals/s end to end).
 */

export type CoSignerDeps = {
  db: Db;
  logger: Logger;
  nowMs: () => number;
  pollMs: number;
};

const CO_SIGNER_ID = 'sandbox-co-signer-simulator';
/** Intents in flight at once: enough to hide each round trip, few enough to leave room for others. */
const SIGNING_CONCURRENCY = 8;

const onlineOrgs = prepared<[], { id: string }>('SELECT id FROM orgs WHERE co_signer_online = 1');

/** libsodium's 64-byte secret key (seed and public key), in its guarded memory. */
type SecretKey = Buffer;
type OrgSigner = { signer: Signer; secretKey: SecretKey };

/**
 * A fresh Ed25519 key pair and the padded Base64 public key to register. libsodium signs in
 * about half the time of node:crypto's one-shot call, as the BFF's signer does (decision 018):
 * the simulator signs each call it makes and each share, on the sandbox's one thread.
 */
function newKeyPair(): { secretKey: SecretKey; publicKeyBase64: string } {
  const publicKey = Buffer.alloc(sodium.crypto_sign_PUBLICKEYBYTES);
  const secretKey = sodium.sodium_malloc(sodium.crypto_sign_SECRETKEYBYTES);
  sodium.crypto_sign_keypair(publicKey, secretKey);
  return { secretKey, publicKeyBase64: publicKey.toString('base64') };
}

function signWith(secretKey: SecretKey, message: string): string {
  const signature = Buffer.allocUnsafe(sodium.crypto_sign_BYTES);
  sodium.crypto_sign_detached(signature, Buffer.from(message, 'utf8'), secretKey);
  return signature.toString('base64');
}

/** One POST over a keep-alive agent; the answer's status and parsed JSON body. */
function postJson(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: Uint8Array,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': String(body.length) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          try {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

export type CoSignerSimulator = {
  start(baseUrl: string): void;
  stop(): Promise<void>;
  /** One polling round for every online org (tests may call it directly). */
  runOnce(): Promise<void>;
};

export function createCoSignerSimulator(deps: CoSignerDeps): CoSignerSimulator {
  const signers = new Map<string, OrgSigner>();
  const agent = new Agent({ keepAlive: true, maxSockets: SIGNING_CONCURRENCY });
  let baseUrl: string | null = null;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;

  function signerFor(orgId: string): OrgSigner {
    const existing = signers.get(orgId);
    if (existing) return existing;
    const { secretKey, publicKeyBase64 } = newKeyPair();
    const { keyId } = createApiKey(
      deps.db,
      orgId,
      { scopes: [CO_SIGNER_SCOPE], publicKey: publicKeyBase64 },
      new Date(deps.nowMs()),
    );
    const entry = {
      signer: { keyId, sign: (message: string) => signWith(secretKey, message) },
      secretKey,
    };
    signers.set(orgId, entry);
    return entry;
  }

  async function call(
    signer: Signer,
    target: string,
    idempotencyKey: string,
    payload: unknown,
  ): Promise<{ status: number; body: unknown }> {
    if (baseUrl === null) throw new Error('co-signer simulator is not started');
    const body = utf8Bytes(JSON.stringify(payload));
    // The protocol's nonce: pooled and time-ordered, as every signer of ours (decision 015).
    const headers = signRestRequest(signer, { method: 'POST', target, body });
    return postJson(
      agent,
      `${baseUrl}${target}`,
      { ...headers, 'content-type': 'application/json', 'x-idempotency-key': idempotencyKey },
      body,
    );
  }

  async function signIntent(
    org: OrgSigner,
    intent: { id: string; sessionId: string | null; digest: string },
  ): Promise<void> {
    let sessionId = intent.sessionId;
    if (sessionId === null) {
      const claimed = await call(
        org.signer,
        `/api/v1/co-signer/intents/${encodeURIComponent(intent.id)}/claim`,
        `claim-${intent.id}`,
        { coSignerId: CO_SIGNER_ID },
      );
      if (claimed.status !== 200) {
        deps.logger.warn(
          { intentId: intent.id, status: claimed.status },
          'co-signer claim refused',
        );
        return;
      }
      const body = claimed.body as { sessionId?: unknown };
      if (typeof body.sessionId !== 'string') return;
      sessionId = body.sessionId;
    }
    const sent = await call(
      org.signer,
      `/api/v1/co-signer/sessions/${encodeURIComponent(sessionId)}/messages`,
      `sign-${sessionId}`,
      {
        type: 'SIGNATURE_SHARE',
        digest: intent.digest,
        signature: signWith(org.secretKey, intent.digest),
      },
    );
    if (sent.status !== 200) {
      deps.logger.warn({ sessionId, status: sent.status }, 'co-signer message refused');
    }
  }

  async function signAll(
    org: OrgSigner,
    intents: { id: string; sessionId: string | null; digest: string }[],
  ): Promise<void> {
    let next = 0;
    const worker = async () => {
      for (let intent = intents[next]; intent !== undefined; intent = intents[next]) {
        next += 1;
        try {
          await signIntent(org, intent);
        } catch (error) {
          deps.logger.warn({ err: error, intentId: intent.id }, 'co-signer round failed');
        }
      }
    };
    await Promise.all(Array.from({ length: SIGNING_CONCURRENCY }, worker));
  }

  async function round(): Promise<void> {
    for (const { id: orgId } of onlineOrgs(deps.db).all()) {
      const pending = openIntents(deps.db, orgId);
      if (pending.length === 0) continue;
      await signAll(signerFor(orgId), pending);
    }
  }

  function runOnce(): Promise<void> {
    running ??= round().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    start(url) {
      baseUrl = url;
      timer ??= setInterval(() => {
        void runOnce();
      }, deps.pollMs);
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
      agent.destroy();
    },
    runOnce,
  };
}
