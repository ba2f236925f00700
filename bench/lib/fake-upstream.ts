import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { WS_PATH } from '@settlement/protocol/signing';

/**
 * A fake upstream event stream for the bench (in the bench process): speaks the interface's
 * topic envelope on /v1/ws, sends system.connected, then emits `transaction.updated` events at
 * a fixed rate. The signed handshake is accepted WITHOUT checking the signature (the bench
 * measures the relay, not authentication). Every event id carries its sequence, and the send
 * time of each sequence is kept, so a receiver can compute the added latency.
 */

export type UpstreamKind = 'bff' | 'reference';

export const REFERENCE_KEY_ID = 'bench-reference';

export type FakeUpstream = {
  wsUrl: string;
  /** performance.now() at which sequence `seq` was sent. */
  sentAt: Float64Array;
  /** The id prefix of every event (`<prefix><sequence>`). */
  idPrefix: string;
  /** Upstream sockets of a kind: the reference fan-out sends key id `bench-reference`, a BFF its own. */
  connections(kind: UpstreamKind): number;
  /** The organization events claim to belong to (set once the demo org is seeded). */
  setOrgId(orgId: string): void;
  /** Sends `rate` events/s for `durationMs` to the sockets of `kind`; resolves with the count. */
  emit(kind: UpstreamKind, rate: number, durationMs: number): Promise<number>;
  close(): Promise<void>;
};

const MAX_EVENTS = 2_000_000;

function eventFrame(orgId: string, id: string, sequence: number, accountId: string): string {
  return JSON.stringify({
    op: 'event',
    subId: 'bench',
    id,
    sequence,
    subject: 'transaction.updated',
    occurredAt: new Date().toISOString(),
    orgId,
    correlationId: `corr-${sequence}`,
    version: 1,
    data: {
      transactionId: `txn_bench_${sequence % 1000}`,
      transactionGroupId: null,
      sourceTransactionId: null,
      destinationTransactionId: null,
      orgId,
      accountId,
      walletId: 'wal_bench_0001',
      destinationAccountId: null,
      destinationWalletId: null,
      chain: 'tron:nile',
      asset: 'TRX',
      amountAtomic: '1250000',
      amountDirection: 'DEBIT',
      isInternalTransfer: false,
      transferKind: 'EXTERNAL_WITHDRAWAL',
      fromAddress: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
      toAddress: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
      txHash: null,
      status: 'PENDING',
      sourceStatus: null,
      destinationStatus: null,
      failureCode: null,
      failureMessage: null,
      stage: 'BROADCAST',
      confirmations: sequence % 19,
    },
  });
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  let orgId = 'org_unset';
  const server: Server = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  const wss = new WebSocketServer({ noServer: true });
  const sockets: Record<UpstreamKind, Set<WebSocket>> = { bff: new Set(), reference: new Set() };
  server.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path !== WS_PATH || typeof req.headers['x-api-signature'] !== 'string') {
      socket.destroy();
      return;
    }
    const kind: UpstreamKind =
      req.headers['x-api-key-id'] === REFERENCE_KEY_ID ? 'reference' : 'bff';
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets[kind].add(ws);
      ws.on('close', () => sockets[kind].delete(ws));
      ws.send(
        JSON.stringify({
          op: 'event',
          subId: 'bench',
          subject: 'system.connected',
          version: 1,
          orgId,
          occurredAt: new Date().toISOString(),
          data: { subId: 'bench' },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const sentAt = new Float64Array(MAX_EVENTS);
  const idPrefix = `bench-${Date.now().toString(36)}-`;
  let sequence = 0;
  const accountId = 'acc_bench_0001';

  return {
    wsUrl: `ws://127.0.0.1:${port}${WS_PATH}`,
    sentAt,
    idPrefix,
    connections: (kind) => sockets[kind].size,
    setOrgId(value) {
      orgId = value;
    },
    emit(kind, rate, durationMs) {
      return new Promise((resolve) => {
        const started = performance.now();
        let sent = 0;
        const total = Math.floor((rate * durationMs) / 1000);
        const tick = () => {
          const due = Math.min(total, Math.floor(((performance.now() - started) * rate) / 1000));
          while (sent < due && sequence < MAX_EVENTS - 1) {
            sequence += 1;
            sent += 1;
            const frame = eventFrame(orgId, `${idPrefix}${sequence}`, sequence, accountId);
            sentAt[sequence] = performance.now();
            for (const ws of sockets[kind]) ws.send(frame);
          }
          if (sent >= total || sequence >= MAX_EVENTS - 1) {
            clearInterval(timer);
            resolve(sent);
          }
        };
        const timer = setInterval(tick, 2);
      });
    },
    async close() {
      for (const ws of [...sockets.bff, ...sockets.reference]) ws.terminate();
      wss.close();
      await new Promise<void>((r) => {
        server.close(() => {
          r();
        });
        server.closeAllConnections();
      });
    },
  };
}
