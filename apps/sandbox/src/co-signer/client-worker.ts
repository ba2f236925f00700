import { parentPort } from 'node:worker_threads';
import { answerThreadRequest, createCoSignerClient, type ThreadRequest } from './client';

/** The Co-Signer simulator's thread (client-thread.ts starts it): one answer per request. */

const port = parentPort;
if (port === null) throw new Error('client-worker.ts runs as a worker thread');
const client = createCoSignerClient();

port.on('message', (request: ThreadRequest) => {
  void answerThreadRequest(client, request).then((reply) => {
    port.postMessage(reply);
  });
});
port.on('close', () => {
  client.close();
});
