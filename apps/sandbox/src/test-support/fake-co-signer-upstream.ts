import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { restCanonicalString, sha256Hex, verifyMessage } from '@settlement/protocol/signing';

/**
 * Test support only: the two Co-Signer routes of the interface as a bare HTTP server that records
 * what it received, for the Co-Signer client's tests (in-process and on its thread).
 */

export type Received = { target: string; headers: IncomingMessage['headers']; body: string };

/** How the fake answers one intent's claim or one session's message; the default is success. */
type Answer = 'refuse' | 'no-session' | 'not-json' | 'hang-up';

export type FakeCoSignerUpstream = {
  baseUrl: string;
  received: Received[];
  /** Intent id (claim) or session id (message) -> how to answer it. */
  answers: Map<string, Answer>;
  close(): Promise<void>;
};

const CLAIM = /^\/api\/v1\/co-signer\/intents\/([^/]+)\/claim$/;
const MESSAGE = /^\/api\/v1\/co-signer\/sessions\/([^/]+)\/messages$/;

export async function startFakeCoSignerUpstream(): Promise<FakeCoSignerUpstream> {
  const received: Received[] = [];
  const answers = new Map<string, Answer>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const target = req.url ?? '';
      received.push({ target, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const claimed = CLAIM.exec(target)?.[1];
      const subject = claimed ?? MESSAGE.exec(target)?.[1] ?? '';
      const answer = answers.get(decodeURIComponent(subject));
      res.setHeader('content-type', 'application/json');
      if (answer === 'hang-up') {
        req.socket.destroy();
      } else if (answer === 'not-json') {
        res.end('<html>gateway</html>');
      } else if (answer === 'refuse') {
        res.statusCode = 409;
        res.end(JSON.stringify({ code: 'CONFLICT' }));
      } else if (claimed !== undefined) {
        res.end(
          JSON.stringify(
            answer === 'no-session'
              ? {}
              : { sessionId: `session-of-${decodeURIComponent(claimed)}` },
          ),
        );
      } else {
        res.end(JSON.stringify({ status: 'SIGNED' }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${String(port)}`,
    received,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Whether a received request carries a valid REST signature by keyId's key. */
export function isSignedBy(publicKey: Uint8Array, keyId: string, request: Received): boolean {
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
