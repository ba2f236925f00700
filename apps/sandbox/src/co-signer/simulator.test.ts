import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { normalizeEvent, type Transaction } from '@settlement/protocol';
import { signMessage, signWsHandshake, WS_PATH } from '@settlement/protocol/signing';
import {
  balances,
  createOrgClient,
  createWallet,
  events,
  fund,
  getTransaction,
  ledgerProblems,
  makeReady,
  newKey,
  startHarness,
  waitFor,
  waitForStatus,
  type RestartableHarness,
  type OrgClient,
  type WalletInfo,
} from '../test-support/sandbox-harness';
import { startCoSignerThread, type CoSignerThread } from './client-thread';
import { createCoSignerSimulator } from './simulator';

const EXTERNAL = 'TPTWjRB9KnLWthWzLfgX1VnWjXGsZ6pVuD';
const TIMEOUT_MS = 3_000;

let harness: RestartableHarness;
let client: OrgClient;
let wallet: WalletInfo;

type Intent = { id: string; status: string; digest: string; sessionId: string | null };

function intentOf(transactionId: string): Intent | undefined {
  return harness.sandbox.ctx.db
    .prepare<[string], Intent>(
      'SELECT id, status, digest, session_id AS sessionId FROM signing_intents WHERE transaction_id = ?',
    )
    .get(transactionId);
}

beforeAll(async () => {
  // The simulator's own timer is effectively off: tests drive it with runOnce().
  harness = await startHarness({
    blockMs: 15,
    money: { coSignerPollMs: 3_600_000, coSignerTimeoutMs: TIMEOUT_MS },
  });
  client = await createOrgClient(harness);
  await makeReady(harness, client);
  wallet = await createWallet(client);
  await fund(harness, client, wallet.id, 'TRX', '100000000');
}, 30_000);

afterAll(async () => {
  await harness.close();
});

async function withdraw(amountAtomic = '1000000'): Promise<Transaction> {
  const response = await client.post(
    '/api/v1/transactions',
    { walletId: wallet.id, asset: 'TRX', toAddress: EXTERNAL, amountAtomic },
    newKey('wd'),
  );
  expect(response.status).toBe(201);
  return response.body as Transaction;
}

describe('simulated Co-Signer', () => {
  it('holds signing while offline, then fails the transaction with CO_SIGNER_TIMEOUT exactly once', async () => {
    const before = await balances(client, wallet.id);
    const tx = await withdraw();
    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/co-signer`, { online: false });
    await harness.sandbox.money.coSigner.runOnce();
    expect(intentOf(tx.id)?.status).toBe('PENDING');
    expect((await getTransaction(client, tx.id)).status).toBe('PENDING');
    const failed = await waitForStatus(client, tx.id, 'FAILED', 10_000);
    expect(failed.failureCode).toBe('CO_SIGNER_TIMEOUT');
    expect(intentOf(tx.id)?.status).toBe('CANCELLED');
    expect((await balances(client, wallet.id)).get('TRX')).toEqual(before.get('TRX'));
    const releases = harness.sandbox.ctx.db
      .prepare<[string], { n: number }>(
        "SELECT COUNT(*) AS n FROM ledger_entries WHERE transaction_id = ? AND kind = 'RELEASE'",
      )
      .get(tx.id);
    expect(releases?.n).toBe(1);
    const types = events(harness, client.orgId)
      .filter((e) => e.data.transactionId === tx.id)
      .map((e) => e.type);
    expect(types).toEqual(['transaction.created', 'transaction.updated', 'transaction.failed']);
    await harness.admin('PUT', `/sandbox/orgs/${client.orgId}/co-signer`, { online: true });
    expect(ledgerProblems(harness)).toEqual([]);
  });

  it('claims and signs through the co-signer endpoints with its own co-signer key', async () => {
    const tx = await withdraw();
    await harness.sandbox.money.coSigner.runOnce();
    expect(intentOf(tx.id)?.status).toBe('SIGNED');
    const db = harness.sandbox.ctx.db;
    const keys = db
      .prepare<[string], { scopes: string }>('SELECT scopes FROM api_keys WHERE org_id = ?')
      .all(client.orgId)
      .map((row) => row.scopes);
    expect(keys).toContain('["co-signer"]');
    const records = db
      .prepare<[string], { key: string }>(
        'SELECT idempotency_key AS key FROM idempotency_records WHERE org_id = ?',
      )
      .all(client.orgId)
      .map((row) => row.key);
    const intent = intentOf(tx.id);
    expect(records).toContain(`claim-${intent?.id ?? ''}`);
    expect(records).toContain(`sign-${intent?.sessionId ?? ''}`);
    await waitForStatus(client, tx.id, 'CONFIRMED');
    expect(ledgerProblems(harness)).toEqual([]);
  });

  it('answers claim and session errors per the sandbox payload rules', async () => {
    const coSigner = await createOrgClient(harness, ['co-signer'], client.orgId);
    const tx = await withdraw();
    const intent = intentOf(tx.id);
    if (!intent) throw new Error('no intent');
    const claimPath = `/api/v1/co-signer/intents/${intent.id}/claim`;

    const forbidden = await client.post(claimPath, { coSignerId: 'x' }, newKey());
    expect([forbidden.status, (forbidden.body as { code: string }).code]).toEqual([
      403,
      'FORBIDDEN',
    ]);
    const missing = await coSigner.post(
      '/api/v1/co-signer/intents/intent_nope/claim',
      { coSignerId: 'x' },
      newKey(),
    );
    expect(missing.status).toBe(404);
    const badBody = await coSigner.post(claimPath, { who: 'x' }, newKey());
    expect(badBody.status).toBe(400);
    const noKey = await coSigner.call('POST', claimPath, { coSignerId: 'x' });
    expect((noKey.body as { code: string }).code).toBe('IDEMPOTENCY_KEY_REQUIRED');

    const claimKey = newKey('claim');
    const claimed = await coSigner.post(claimPath, { coSignerId: 'manual' }, claimKey);
    expect(claimed.status).toBe(200);
    const claim = claimed.body as { sessionId: string; digest: string; status: string };
    expect(claim).toMatchObject({ status: 'CLAIMED', transactionId: tx.id, digest: intent.digest });
    const replay = await coSigner.post(claimPath, { coSignerId: 'manual' }, claimKey);
    expect(replay.body).toEqual(claimed.body);
    const again = await coSigner.post(claimPath, { coSignerId: 'manual' }, newKey());
    expect([again.status, (again.body as { code: string }).code]).toEqual([
      409,
      'CO_SIGNER_CLAIM_CONFLICT',
    ]);
    expect((await getTransaction(client, tx.id)).status).toBe('PENDING');

    const messages = `/api/v1/co-signer/sessions/${claim.sessionId}/messages`;
    const seed = coSigner.seed;
    const wrongDigest = await coSigner.post(
      messages,
      {
        type: 'SIGNATURE_SHARE',
        digest: '0'.repeat(64),
        signature: signMessage(seed, '0'.repeat(64)),
      },
      newKey(),
    );
    expect(wrongDigest.status).toBe(400);
    const wrongSignature = await coSigner.post(
      messages,
      { type: 'SIGNATURE_SHARE', digest: claim.digest, signature: signMessage(seed, 'other') },
      newKey(),
    );
    expect(wrongSignature.status).toBe(400);
    expect(JSON.stringify(wrongSignature.body)).not.toContain(signMessage(seed, 'other'));
    const signed = await coSigner.post(
      messages,
      { type: 'SIGNATURE_SHARE', digest: claim.digest, signature: signMessage(seed, claim.digest) },
      newKey(),
    );
    expect(signed.status).toBe(200);
    expect(signed.body).toMatchObject({ status: 'COMPLETE', transactionId: tx.id });
    const twice = await coSigner.post(
      messages,
      { type: 'SIGNATURE_SHARE', digest: claim.digest, signature: signMessage(seed, claim.digest) },
      newKey(),
    );
    expect(twice.status).toBe(409);
    await waitForStatus(client, tx.id, 'CONFIRMED');
    const other = await createOrgClient(harness, ['co-signer']);
    const foreign = await other.post(claimPath, { coSignerId: 'x' }, newKey());
    expect(foreign.status).toBe(404);
    expect(ledgerProblems(harness)).toEqual([]);
  });
});

describe("the Co-Signer's thread", () => {
  it('once ended takes its keys along: the next round registers a new co-signer key and signs', async () => {
    const threads: CoSignerThread[] = [];
    const simulator = createCoSignerSimulator({
      db: harness.sandbox.ctx.db,
      logger: harness.sandbox.ctx.logger,
      nowMs: harness.sandbox.ctx.nowMs,
      pollMs: 3_600_000,
      startThread: (onExit) => {
        const thread = startCoSignerThread(onExit);
        threads.push(thread);
        return thread;
      },
    });
    simulator.start(harness.baseUrl);
    const coSignerKeys = () =>
      harness.sandbox.ctx.db
        .prepare<[string], { n: number }>(
          `SELECT COUNT(*) AS n FROM api_keys WHERE org_id = ? AND scopes = '["co-signer"]'`,
        )
        .get(client.orgId)?.n ?? 0;
    const keysBefore = coSignerKeys();

    const first = await withdraw();
    await simulator.runOnce();
    expect(intentOf(first.id)?.status).toBe('SIGNED');
    const second = await withdraw();
    await simulator.runOnce();
    expect(intentOf(second.id)?.status).toBe('SIGNED');
    expect([threads.length, coSignerKeys()]).toEqual([1, keysBefore + 1]);

    await threads[0]?.close();
    const third = await withdraw();
    await simulator.runOnce();
    expect(intentOf(third.id)?.status).toBe('SIGNED');
    expect([threads.length, coSignerKeys()]).toEqual([2, keysBefore + 2]);
    await simulator.stop();
    await waitForStatus(client, third.id, 'CONFIRMED');
    expect(ledgerProblems(harness)).toEqual([]);
  });
});

describe('signing timeout after a claim', () => {
  it('fails a claimed but unsigned transaction and refuses the late signature', async () => {
    const coSigner = await createOrgClient(harness, ['co-signer'], client.orgId);
    const tx = await withdraw();
    const intent = intentOf(tx.id);
    const claimed = await coSigner.post(
      `/api/v1/co-signer/intents/${intent?.id ?? ''}/claim`,
      { coSignerId: 'slow' },
      newKey(),
    );
    const { sessionId, digest } = claimed.body as { sessionId: string; digest: string };
    const failed = await waitForStatus(client, tx.id, 'FAILED', 10_000);
    expect(failed.failureCode).toBe('CO_SIGNER_TIMEOUT');
    const late = await coSigner.post(
      `/api/v1/co-signer/sessions/${sessionId}/messages`,
      { type: 'SIGNATURE_SHARE', digest, signature: signMessage(coSigner.seed, digest) },
      newKey(),
    );
    expect([late.status, (late.body as { code: string }).code]).toEqual([
      409,
      'CO_SIGNER_CLAIM_CONFLICT',
    ]);
    expect((await getTransaction(client, tx.id)).status).toBe('FAILED');
    expect(ledgerProblems(harness)).toEqual([]);
  });
});

describe('event stream', () => {
  it('delivers the lifecycle of a withdrawal over /v1/ws in order, with protocol-valid data', async () => {
    const headers = signWsHandshake(client.signer);
    const socket = new WebSocket(`${harness.baseUrl.replace('http', 'ws')}${WS_PATH}`, { headers });
    const frames: unknown[] = [];
    socket.on('message', (data: Buffer) => {
      frames.push(JSON.parse(data.toString('utf8')));
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => {
        resolve();
      });
      socket.once('error', reject);
    });
    await waitFor(() => (frames.length > 0 ? true : undefined), 'system.connected');
    const tx = await withdraw();
    await harness.sandbox.money.coSigner.runOnce();
    await waitForStatus(client, tx.id, 'CONFIRMED');
    const mine = await waitFor(() => {
      const normalized = frames
        .map((frame) => normalizeEvent(frame, { expectedOrgId: client.orgId }))
        .flatMap((result) => (result.ok && result.event.kind === 'business' ? [result.event] : []))
        .filter((event) => event.data.transactionId === tx.id);
      return normalized.at(-1)?.type === 'transaction.confirmed' ? normalized : undefined;
    }, 'transaction.confirmed over the socket');
    socket.close();
    expect(mine[0]?.type).toBe('transaction.created');
    expect(mine.map((e) => e.type)).toContain('transaction.updated');
    expect(new Set(mine.map((e) => e.correlationId))).toEqual(new Set([tx.correlationId]));
    const occurred = mine.map((e) => e.occurredAt);
    expect([...occurred].sort()).toEqual(occurred);
  });
});

describe('restart', () => {
  it('keeps pending withdrawals, open signing sessions, chain height and the outbox', async () => {
    const broadcastTx = await withdraw();
    await harness.sandbox.money.coSigner.runOnce();
    const broadcast = await waitFor(async () => {
      const tx = await getTransaction(client, broadcastTx.id);
      return tx.onChainDetails === null ? undefined : tx;
    }, 'broadcast');
    // A second one is claimed by hand but not signed: the next process's Co-Signer finishes it.
    const claimedTx = await withdraw();
    const intent = intentOf(claimedTx.id);
    const coSigner = await createOrgClient(harness, ['co-signer'], client.orgId);
    const claim = await coSigner.post(
      `/api/v1/co-signer/intents/${intent?.id ?? ''}/claim`,
      { coSignerId: 'before-restart' },
      newKey(),
    );
    expect(claim.status).toBe(200);
    const height = harness.sandbox.money.chain.height;
    const outbox = events(harness, client.orgId).length;

    await harness.restart();
    expect(harness.sandbox.money.chain.height).toBeGreaterThanOrEqual(height);
    expect(events(harness, client.orgId).length).toBeGreaterThanOrEqual(outbox);
    await harness.sandbox.money.coSigner.runOnce();
    expect(intentOf(claimedTx.id)?.status).toBe('SIGNED');
    const confirmed = await waitForStatus(client, broadcastTx.id, 'CONFIRMED');
    expect(confirmed.onChainDetails?.txHash).toBe(broadcast.onChainDetails?.txHash);
    expect(confirmed.onChainDetails?.blockNumber).toBe(broadcast.onChainDetails?.blockNumber);
    await waitForStatus(client, claimedTx.id, 'CONFIRMED');
    const created = events(harness, client.orgId).filter(
      (e) => e.type === 'transaction.created' && e.data.transactionId === broadcastTx.id,
    );
    expect(created).toHaveLength(1);
    expect(ledgerProblems(harness)).toEqual([]);
  });
});
