import { Agent, request } from 'node:http';
import sodium from 'sodium-native';
import { utf8Bytes } from '@settlement/protocol';
import { signRestRequest, type Signer } from '@settlement/protocol/signing';

/**
 * The Co-Signer's own side of the interface: its key pairs and its signed calls over HTTP. It
 * runs on a thread of its own (client-thread.ts), as a real Co-Signer runs in its own process:
 * its secret keys never reach the sandbox's thread, and the sandbox's thread serves its calls
 * as it serves anyone's.
 */

type Intent = { id: string; sessionId: string | null; digest: string };

/** What the simulator's thread logs for a round; never a key or a signature. */
export type Warning = { message: string; fields: Record<string, string | number> };

export type SignJob = { orgId: string; keyId: string; baseUrl: string; intents: Intent[] };

/** Between the sandbox's thread and the Co-Signer's (client-thread.ts, client-worker.ts). */
export type ThreadCall = { kind: 'new-key'; orgId: string } | { kind: 'sign'; job: SignJob };
export type ThreadRequest = ThreadCall & { id: number };
export type ThreadReply =
  { id: number; isOk: true; value: unknown } | { id: number; isOk: false; error: string };

const CO_SIGNER_ID = 'sandbox-co-signer-simulator';
/**
 * Intents in flight at once. Each is two round trips (claim, share) that wait their turn on the
 * sandbox's busy thread, so the simulator signs about this many per two round trips: eight
 * bounded a burst of withdrawals to ~200/s on slow cores with the thread not yet saturated
 * (decision 022's amendment). Past ~16 the sandbox's thread is the bound, not this.
 */
const SIGNING_CONCURRENCY = 24;

/** libsodium's 64-byte secret key (seed and public key), in its guarded memory. */
type SecretKey = Buffer;

/**
 * A fresh Ed25519 key pair. libsodium signs in about half the time of node:crypto's one-shot
 * call, as the BFF's signer does (decision 018).
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

export type CoSignerClient = {
  /** A new key pair for the org, replacing any before it; returns its public key (Base64). */
  newKey(orgId: string): string;
  /** Claims (when not yet claimed) and signs each intent through the interface at baseUrl. */
  signAll(job: SignJob): Promise<Warning[]>;
  close(): void;
};

export function createCoSignerClient(): CoSignerClient {
  const secretKeys = new Map<string, SecretKey>();
  const agent = new Agent({ keepAlive: true, maxSockets: SIGNING_CONCURRENCY });

  async function call(
    signer: Signer,
    url: string,
    target: string,
    idempotencyKey: string,
    payload: unknown,
  ): Promise<{ status: number; body: unknown }> {
    const body = utf8Bytes(JSON.stringify(payload));
    // The protocol's nonce: pooled and time-ordered, as every signer of ours (decision 015).
    const headers = signRestRequest(signer, { method: 'POST', target, body });
    return postJson(
      agent,
      `${url}${target}`,
      { ...headers, 'content-type': 'application/json', 'x-idempotency-key': idempotencyKey },
      body,
    );
  }

  async function signIntent(
    baseUrl: string,
    signer: Signer,
    secretKey: SecretKey,
    intent: Intent,
    warnings: Warning[],
  ): Promise<void> {
    let sessionId = intent.sessionId;
    if (sessionId === null) {
      const claimed = await call(
        signer,
        baseUrl,
        `/api/v1/co-signer/intents/${encodeURIComponent(intent.id)}/claim`,
        `claim-${intent.id}`,
        { coSignerId: CO_SIGNER_ID },
      );
      if (claimed.status !== 200) {
        warnings.push({
          message: 'co-signer claim refused',
          fields: { intentId: intent.id, status: claimed.status },
        });
        return;
      }
      const body = claimed.body as { sessionId?: unknown };
      if (typeof body.sessionId !== 'string') return;
      sessionId = body.sessionId;
    }
    const sent = await call(
      signer,
      baseUrl,
      `/api/v1/co-signer/sessions/${encodeURIComponent(sessionId)}/messages`,
      `sign-${sessionId}`,
      {
        type: 'SIGNATURE_SHARE',
        digest: intent.digest,
        signature: signWith(secretKey, intent.digest),
      },
    );
    if (sent.status !== 200) {
      warnings.push({
        message: 'co-signer message refused',
        fields: { sessionId, status: sent.status },
      });
    }
  }

  return {
    newKey(orgId) {
      const { secretKey, publicKeyBase64 } = newKeyPair();
      secretKeys.set(orgId, secretKey);
      return publicKeyBase64;
    },
    async signAll({ orgId, keyId, baseUrl, intents }) {
      const secretKey = secretKeys.get(orgId);
      if (secretKey === undefined) throw new Error(`no co-signer key for org ${orgId}`);
      const signer: Signer = { keyId, sign: (message) => signWith(secretKey, message) };
      const warnings: Warning[] = [];
      let next = 0;
      const worker = async () => {
        for (let intent = intents[next]; intent !== undefined; intent = intents[next]) {
          next += 1;
          try {
            await signIntent(baseUrl, signer, secretKey, intent, warnings);
          } catch (error) {
            warnings.push({
              message: 'co-signer round failed',
              fields: {
                intentId: intent.id,
                err: error instanceof Error ? error.message : String(error),
              },
            });
          }
        }
      };
      await Promise.all(Array.from({ length: SIGNING_CONCURRENCY }, worker));
      return warnings;
    },
    close() {
      agent.destroy();
    },
  };
}

/** One request from the sandbox's thread answered by the client: its value, or its error's message. */
export async function answerThreadRequest(
  client: CoSignerClient,
  request: ThreadRequest,
): Promise<ThreadReply> {
  try {
    const value =
      request.kind === 'new-key' ? client.newKey(request.orgId) : await client.signAll(request.job);
    return { id: request.id, isOk: true, value };
  } catch (error) {
    return {
      id: request.id,
      isOk: false,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}
