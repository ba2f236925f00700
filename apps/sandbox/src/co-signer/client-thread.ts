import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import type { SignJob, ThreadCall, ThreadReply, ThreadRequest, Warning } from './client';

/** The thread's entry: it registers tsx's loader (which a worker does not inherit), then client-worker.ts. */
const ENTRY = new URL('./client-worker-boot.mjs', import.meta.url);

const PublicKeySchema = z.string().min(1);
const WarningsSchema = z.array(
  z.object({
    message: z.string(),
    fields: z.record(z.string(), z.union([z.string(), z.number()])),
  }),
);

export type CoSignerThread = {
  /** A new key pair for the org inside the thread; its public key (Base64) to register. */
  newKey(orgId: string): Promise<string>;
  signAll(job: SignJob): Promise<Warning[]>;
  close(): Promise<void>;
};

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** Starts the thread; `onExit` runs once when it ends (closed, or failed: its keys are gone). */
export function startCoSignerThread(onExit: () => void): CoSignerThread {
  const worker = new Worker(ENTRY, { execArgv: [] });
  // The sandbox's server keeps the process alive; this thread alone never should.
  worker.unref();
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let ended: Error | null = null;

  const failAll = (error: Error) => {
    ended ??= error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  worker.on('message', (reply: ThreadReply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (reply.isOk) waiting.resolve(reply.value);
    else waiting.reject(new Error(reply.error));
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => {
    failAll(new Error(`the co-signer thread exited (code ${String(code)})`));
    onExit();
  });

  const ask = async <T>(call: ThreadCall, schema: z.ZodType<T>): Promise<T> => {
    if (ended) throw ended;
    const id = nextId;
    nextId += 1;
    const value = await new Promise<unknown>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      const request: ThreadRequest = { ...call, id };
      worker.postMessage(request);
    });
    return schema.parse(value);
  };

  return {
    newKey: (orgId) => ask({ kind: 'new-key', orgId }, PublicKeySchema),
    signAll: (job) => ask({ kind: 'sign', job }, WarningsSchema),
    async close() {
      await worker.terminate();
    },
  };
}
