import { connectEventStream } from '@settlement/client';
import { createNobleSigner, decodeKey32 } from '@settlement/protocol/signing';

/**
 * Every event the upstream holds for the organization, read straight from the sandbox's stream
 * from its beginning (`resumeAfter=0`) with the BFF's own event key: the reference the BFF's
 * event store is compared with. Returns once no new event arrived for `quietMs`.
 */
export async function readUpstreamEvents(input: {
  wsUrl: string;
  orgId: string;
  keyId: string;
  seed: string;
  quietMs: number;
  timeoutMs: number;
}): Promise<string[]> {
  const ids: string[] = [];
  let lastAt = Date.now();
  const stream = connectEventStream({
    wsUrl: input.wsUrl,
    signer: createNobleSigner(input.keyId, decodeKey32(input.seed, 'seed')),
    expectedOrgId: input.orgId,
    resumeAfter: () => (ids.length === 0 ? '0' : (ids[ids.length - 1] ?? '0')),
    onEvent: (event) => {
      ids.push(event.id);
      lastAt = Date.now();
    },
  });
  const started = Date.now();
  while (Date.now() - lastAt < input.quietMs && Date.now() - started < input.timeoutMs) {
    await new Promise((done) => setTimeout(done, 100));
  }
  await stream.close();
  return ids;
}
