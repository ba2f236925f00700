import { CO_SIGNER_SCOPE } from '@settlement/protocol';
import type { Logger } from 'pino';
import { createApiKey } from '../domain/orgs';
import { openIntents } from '../domain/transactions-signing';
import type { Db } from '../store/db';
import { prepared } from '../store/prepared';
import { startCoSignerThread, type CoSignerThread } from './client-thread';

/**
 * The embedded Co-Signer simulator. For every org whose Co-Signer switch is online it polls
 * for signing intents and signs them THROUGH THE INTERFACE, over real HTTP to the sandbox's
 * own port: POST /api/v1/co-signer/intents/{id}/claim, then
 * POST /api/v1/co-signer/sessions/{sessionId}/messages, each signed with the org's own
 * `co-signer` API key (registered through the store on first use; its secret lives only in
 * the Co-Signer's thread) and carrying an idempotency key derived from the intent or session.
 * While the switch is offline nothing is signed, so transactions wait and eventually time out.
 *
 * This thread decides what to sign (the switch, the open intents); the Co-Signer's own thread
 * (client.ts) signs and calls, a few intents at a time over keep-alive connections. On the
 * sandbox's one thread the calls' client side was 8-11% of its busy time under a stream of
 * withdrawals, time taken from serving them (decision 022).
 */

export type CoSignerDeps = {
  db: Db;
  logger: Logger;
  nowMs: () => number;
  pollMs: number;
  /** Starts the Co-Signer's thread (tests wrap it to end one). */
  startThread?: typeof startCoSignerThread;
};

const onlineOrgs = prepared<[], { id: string }>('SELECT id FROM orgs WHERE co_signer_online = 1');

export type CoSignerSimulator = {
  start(baseUrl: string): void;
  stop(): Promise<void>;
  /** One polling round for every online org (tests may call it directly). */
  runOnce(): Promise<void>;
};

export function createCoSignerSimulator(deps: CoSignerDeps): CoSignerSimulator {
  /** The key id registered for each org's key pair inside the current thread. */
  const keyIds = new Map<string, string>();
  let thread: CoSignerThread | null = null;
  let baseUrl: string | null = null;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;

  // Started by the first round with an org's Co-Signer online (a Co-Signer that is online is
  // running), so a sandbox whose Co-Signers are all offline runs no second thread, and its
  // start-up is not paid inside the first stream of withdrawals.
  function threadNow(): CoSignerThread {
    if (thread) return thread;
    const started = (deps.startThread ?? startCoSignerThread)(() => {
      // Its key pairs went with it: the next one registers new keys.
      if (thread === started) thread = null;
      keyIds.clear();
    });
    thread = started;
    return started;
  }

  async function keyIdFor(signing: CoSignerThread, orgId: string): Promise<string> {
    const existing = keyIds.get(orgId);
    if (existing !== undefined) return existing;
    const publicKey = await signing.newKey(orgId);
    const { keyId } = createApiKey(
      deps.db,
      orgId,
      { scopes: [CO_SIGNER_SCOPE], publicKey },
      new Date(deps.nowMs()),
    );
    keyIds.set(orgId, keyId);
    return keyId;
  }

  async function round(): Promise<void> {
    if (baseUrl === null) throw new Error('co-signer simulator is not started');
    const orgs = onlineOrgs(deps.db).all();
    if (orgs.length === 0) return;
    const signing = threadNow();
    for (const { id: orgId } of orgs) {
      const intents = openIntents(deps.db, orgId);
      if (intents.length === 0) continue;
      const keyId = await keyIdFor(signing, orgId);
      const warnings = await signing.signAll({ orgId, keyId, baseUrl, intents });
      for (const { message, fields } of warnings) deps.logger.warn(fields, message);
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
        runOnce().catch((error: unknown) => {
          deps.logger.warn({ err: error }, 'co-signer round failed');
        });
      }, deps.pollMs);
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
      const closing = thread;
      thread = null;
      await closing?.close();
    },
    runOnce,
  };
}
