import { parentPort } from 'node:worker_threads';
import { createCoSignerClient, type ThreadReply, type ThreadRequest } from './client';

/** The Co-Signer simulator's thread (client-thread.ts starts it): one answer per request. */

const port = parentPort;
if (port === null) throw new Error('client-worker.ts runs as a worker thread');
const client = createCoSignerClient();

async function answer(request: ThreadRequest): Promise<ThreadReply> {
  try {
    if (request.kind === 'new-key') {
      return { id: request.id, isOk: true, value: client.newKey(request.orgId) };
    }
    return { id: request.id, isOk: true, value: await client.signAll(request.job) };
  } catch (error) {
    return {
      id: request.id,
      isOk: false,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

port.on('message', (request: ThreadRequest) => {
  void answer(request).then((reply) => {
    port.postMessage(reply);
  });
});
port.on('close', () => {
  client.close();
});
