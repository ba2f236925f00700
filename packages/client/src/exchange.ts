import { errors, type Dispatcher } from 'undici';
import { onAbort, type CancelSignal } from './cancellation';

export type ExchangeOptions = {
  origin: string;
  path: string;
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body: Uint8Array | null;
  signal?: CancelSignal;
  headersTimeout: number;
  bodyTimeout: number;
};

export type Exchanged = {
  status: number;
  headers: Dispatcher.ResponseData['headers'];
  bodyBytes: Uint8Array;
};

function joined(chunks: Buffer[], length: number): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  return chunks.length === 0 ? new Uint8Array(0) : Buffer.concat(chunks, length);
}

/**
 * One exchange's handler and outcome: undici calls its methods as the answer comes. A class,
 * not closures: the server code runs under tsx, whose transform names every closure assigned
 * to a name (`__name`, an Object.defineProperty) each time it is created. Three such closures
 * here and two in the client's `send` were ~2% of the BFF's busy time (BENCHMARKS.md, group 2).
 */
class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private abortReason: Error | null = null;
  private isSettled = false;
  private status = 0;
  private headers: Exchanged['headers'] = {};
  private readonly chunks: Buffer[] = [];
  private length = 0;
  private stopListening: (() => void) | null = null;

  constructor(
    private readonly resolve: (answer: Exchanged) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  /** Aborts the request now (before it starts: as soon as undici hands over its controller). */
  abort(reason: Error): void {
    this.abortReason = reason;
    this.controller?.abort(reason);
  }

  listen(signal: CancelSignal): void {
    this.stopListening = onAbort(signal, () => {
      this.abort(abortReasonOf(signal));
    });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.abortReason) controller.abort(this.abortReason);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Exchanged['headers'],
  ): void {
    // An informational answer (1xx) is followed by the real one.
    if (statusCode < 200) return;
    this.status = statusCode;
    this.headers = headers;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  onResponseEnd(): void {
    if (!this.settle()) return;
    this.resolve({
      status: this.status,
      headers: this.headers,
      bodyBytes: joined(this.chunks, this.length),
    });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.settle()) this.reject(error);
  }

  /** True the first time only: an exchange ends once. */
  settle(): boolean {
    if (this.isSettled) return false;
    this.isSettled = true;
    this.stopListening?.();
    return true;
  }
}

function abortReasonOf(signal: CancelSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new errors.RequestAbortedError();
}

/**
 * One HTTP exchange on undici's dispatch API, the answer's body gathered as bytes. The same
 * outcome as `dispatcher.request()` followed by `body.arrayBuffer()` (its status, parsed
 * headers and bytes; a failure or an abort rejects with the same error), without the readable
 * stream, its events and its promises between the socket and the bytes: ~6 us a call on this
 * machine, out of ~24 (BENCHMARKS.md, group 2). undici's chunks are never reused, so they are
 * kept as they come.
 */
export function exchange(dispatcher: Dispatcher, options: ExchangeOptions): Promise<Exchanged> {
  const { signal, ...request } = options;
  return new Promise<Exchanged>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReasonOf(signal));
      return;
    }
    const handler = new Exchange(resolve, reject);
    if (signal) handler.listen(signal);
    try {
      dispatcher.dispatch(request, handler);
    } catch (error) {
      if (handler.settle()) reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
