import { EventEmitter } from 'node:events';

/**
 * One request's or attempt's abort signal that dies young. Node 20 builds every AbortSignal as
 * an EventTarget whose prototype is then swapped and which then gains symbol-keyed fields; V8
 * keeps such objects through scavenges, so each one is promoted (~500 bytes) and waits for a
 * mark-compact. At two signals per proxied request that was most of the BFF's promotion at
 * 500 req/s and the major GCs behind its p99 (BENCHMARKS.md). An EventEmitter is an ordinary
 * object; undici accepts one as `signal` and listens with `once('abort')`.
 */
export class Cancellation extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  /** Aborts once: later calls keep the first reason. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/** A caller's way to stop a request: a standard AbortSignal, or a Cancellation. */
export type CancelSignal = AbortSignal | Cancellation;

/** Calls `listener` once when `signal` aborts; the returned function stops listening. */
export function onAbort(signal: CancelSignal, listener: () => void): () => void {
  if (signal instanceof Cancellation) {
    signal.once('abort', listener);
    return () => signal.removeListener('abort', listener);
  }
  signal.addEventListener('abort', listener, { once: true });
  return () => {
    signal.removeEventListener('abort', listener);
  };
}

/** The error a request stopped by `signal` rejects with. */
export function abortError(signal: CancelSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}
