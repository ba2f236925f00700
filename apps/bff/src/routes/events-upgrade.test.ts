import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startBff,
  startSandbox,
  type BffInstance,
  type SandboxProcess,
} from '../test-support/harness';

let sandbox: SandboxProcess;
let bff: BffInstance;

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 50 });
  bff = await startBff({ sandbox });
}, 60_000);

afterAll(async () => {
  await bff.close();
  await sandbox.stop();
});

/** Sends one raw HTTP request and resolves with whatever came back before the socket closed. */
function raw(request: string): Promise<string> {
  const { port } = new URL(bff.url);
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(request);
    });
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('close', () => {
      resolve(answer);
    });
    socket.on('error', reject);
  });
}

describe('an upgrade request the BFF cannot read', () => {
  it('closes a request target that is no URL (`http://[`) and keeps serving', async () => {
    // Node hands such a target to the 'upgrade' listener as is; throwing there ended the process.
    await raw(
      'GET http://[ HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: AQEBAQEBAQEBAQEBAQEBAQ==\r\n\r\n',
    );
    expect((await bff.call('GET', '/bff/healthz')).status).toBe(200);
  });
});
