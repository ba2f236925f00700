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
    let controller: Dispatcher.DispatchController | null = null;
    let abortReason: Error | null = null;
    let settled = false;
    let status = 0;
    let headers: Exchanged['headers'] = {};
    const chunks: Buffer[] = [];
    let length = 0;
    let stopListening = (): void => undefined;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      stopListening();
      outcome();
    };
    if (signal) {
      const reasonOf = (): Error =>
        signal.reason instanceof Error ? signal.reason : new errors.RequestAbortedError();
      if (signal.aborted) {
        reject(reasonOf());
        return;
      }
      stopListening = onAbort(signal, () => {
        abortReason = reasonOf();
        // Before the request starts, undici has no controller yet: onRequestStart aborts it.
        controller?.abort(abortReason);
      });
    }
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started;
        if (abortReason) started.abort(abortReason);
      },
      onResponseStart(_controller, statusCode, responseHeaders) {
        // An informational answer (1xx) is followed by the real one.
        if (statusCode < 200) return;
        status = statusCode;
        headers = responseHeaders;
      },
      onResponseData(_controller, chunk) {
        chunks.push(chunk);
        length += chunk.length;
      },
      onResponseEnd() {
        settle(() => {
          resolve({ status, headers, bodyBytes: joined(chunks, length) });
        });
      },
      onResponseError(_controller, error) {
        settle(() => {
          reject(error);
        });
      },
    };
    try {
      dispatcher.dispatch(request, handler);
    } catch (error) {
      settle(() => {
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    }
  });
}
