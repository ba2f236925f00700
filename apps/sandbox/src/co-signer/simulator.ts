import { CO_SIGNER_SCOPE, toBase64, utf8Bytes } from '@settlement/protocol';
import {
  createNobleSigner,
  generateSeed,
  publicKeyFromSeed,
  signMessage,
  signRestRequest,
  type Signer,
} from '@settlement/protocol/signing';
import type { Logger } from 'pino';
import { createApiKey } from '../domain/orgs';
import { openIntents } from '../domain/transactions-signing';
import type { Db } from '../store/db';

/**
 * The embedded Co-Signer simulator. For every org whose Co-Signer switch is online it polls
 * for signing intents and signs them THROUGH THE INTERFACE, over real HTTP to the sandbox's
 * own port: POST /api/v1/co-signer/intents/{id}/claim, then
 * POST /api/v1/co-signer/sessions/{sessionId}/messages, each signed with the org's own
 * `co-signer` API key (created through the store on first use; its seed lives only in this
 * process's memory) and carrying an idempotency key derived from the intent or session.
 * While the switch is offline nothing is signed, so transactions wait and eventually time out.
 */

export type CoSignerDeps = {
  db: Db;
  logger: Logger;
  nowMs: () => number;
  pollMs: number;
};

const CO_SIGNER_ID = 'sandbox-co-signer-simulator';

type OrgSigner = { signer: Signer; seed: Uint8Array };

export type CoSignerSimulator = {
  start(baseUrl: string): void;
  stop(): Promise<void>;
  /** One polling round for every online org (tests may call it directly). */
  runOnce(): Promise<void>;
};

export function createCoSignerSimulator(deps: CoSignerDeps): CoSignerSimulator {
  const signers = new Map<string, OrgSigner>();
  let baseUrl: string | null = null;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;

  function signerFor(orgId: string): OrgSigner {
    const existing = signers.get(orgId);
    if (existing) return existing;
    const seed = generateSeed();
    const { keyId } = createApiKey(
      deps.db,
      orgId,
      { scopes: [CO_SIGNER_SCOPE], publicKey: toBase64(publicKeyFromSeed(seed)) },
      new Date(deps.nowMs()),
    );
    const entry = { signer: createNobleSigner(keyId, seed), seed };
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
    const headers = signRestRequest(signer, { method: 'POST', target, body });
    const response = await fetch(`${baseUrl}${target}`, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'x-idempotency-key': idempotencyKey,
      },
      body,
    });
    return { status: response.status, body: await response.json() };
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
        signature: signMessage(org.seed, intent.digest),
      },
    );
    if (sent.status !== 200) {
      deps.logger.warn({ sessionId, status: sent.status }, 'co-signer message refused');
    }
  }

  async function round(): Promise<void> {
    const orgs = deps.db
      .prepare<[], { id: string }>('SELECT id FROM orgs WHERE co_signer_online = 1')
      .all();
    for (const { id: orgId } of orgs) {
      const pending = openIntents(deps.db, orgId);
      if (pending.length === 0) continue;
      const org = signerFor(orgId);
      for (const intent of pending) {
        try {
          await signIntent(org, intent);
        } catch (error) {
          deps.logger.warn({ err: error, intentId: intent.id }, 'co-signer round failed');
        }
      }
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
    },
    runOnce,
  };
}
